'use strict';
// Everything read from Redis reaches the page as text nodes (textContent, append of strings), never as markup.
(function () {
  const POLL_MS = 2000;
  let selected = null;

  function el(tag, props, ...children) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(props || {})) {
      if (name === 'class') {
        node.className = value;
      } else if (name === 'onclick') {
        node.addEventListener('click', value);
      } else {
        node.setAttribute(name, value);
      }
    }
    node.append(...children.map(child => child == null ? '' : child));
    return node;
  }

  function age(ms) {
    if (ms == null || ms < 0) {
      return '—';
    }
    if (ms < 1000) {
      return ms + ' ms';
    }
    if (ms < 60000) {
      return (ms / 1000).toFixed(1) + ' s';
    }
    if (ms < 3600000) {
      return Math.floor(ms / 60000) + ' min ' + Math.floor(ms % 60000 / 1000) + ' s';
    }
    return Math.floor(ms / 3600000) + ' h ' + Math.floor(ms % 3600000 / 60000) + ' min';
  }

  function label(queue, group) {
    return group ? queue + ' (group ' + group + ')' : queue;
  }

  function notice(text, failing) {
    const node = document.getElementById('notice');
    node.textContent = text;
    node.className = failing ? 'notice failing' : 'notice';
    node.hidden = false;
  }

  function status(text, failing) {
    const node = document.getElementById('status');
    node.textContent = text;
    node.className = failing ? 'status failing' : 'status';
  }

  class HttpError extends Error {
    constructor(status, message) {
      super(message);
      this.status = status;
    }
  }

  async function answer(response) {
    const body = await response.json();
    if (!response.ok) {
      throw new HttpError(response.status, body.error || 'HTTP ' + response.status);
    }
    return body;
  }

  async function getJson(path) {
    return answer(await fetch(path, {cache: 'no-store'}));
  }

  async function act(path, body, done) {
    try {
      const result = await answer(await fetch(path, {
        method: 'POST',
        headers: {'Content-Type': 'application/json'},
        body: JSON.stringify(body)
      }));
      notice(done(result), false);
    } catch (e) {
      notice(e.message, true);
    }
    await refresh();
  }

  function redriveAll(row) {
    act('api/redrive', {queue: row.queue, group: row.group},
        result => 'Redrove ' + result.moved + ' dead letter(s) of ' + label(row.queue, row.group));
  }

  function redriveOne(row, messageId) {
    act('api/redrive', {queue: row.queue, group: row.group, messageId: messageId},
        () => 'Redrove ' + messageId + ' of ' + label(row.queue, row.group));
  }

  function purge(row) {
    if (!confirm('Purge ' + label(row.queue, row.group) + '? Every ready, delayed and dead message is removed; '
        + 'messages in flight finish normally.')) {
      return;
    }
    act('api/purge', {queue: row.queue, group: row.group},
        result => 'Purged ' + result.removed + ' message(s) of ' + label(row.queue, row.group));
  }

  function pause(row) {
    const minutes = prompt('Pause ' + row.queue + ' for every consumer, in every group, for how many minutes? '
        + 'Leave it empty to pause until resumed.', '');
    if (minutes === null) {
      return;
    }
    const durationMs = minutes.trim() === '' ? 0 : Math.round(Number(minutes) * 60000);
    if (!(durationMs >= 0)) {
      notice('Not a number of minutes: ' + minutes, true);
      return;
    }
    act('api/pause', {queue: row.queue, group: row.group, durationMs: durationMs},
        () => 'Paused ' + row.queue + (durationMs ? ' for ' + minutes.trim() + ' min' : ' until resumed'));
  }

  function resume(row) {
    act('api/resume', {queue: row.queue, group: row.group}, () => 'Resumed ' + row.queue);
  }

  // Rows are kept and updated in place, by key, so that a button is not replaced under the pointer by a poll.
  function syncRows(tbody, items, keyOf, create, update) {
    const existing = new Map();
    for (const tr of tbody.children) {
      existing.set(tr.dataset.key, tr);
    }
    const rows = items.map(item => {
      const key = keyOf(item);
      let tr = existing.get(key);
      if (!tr) {
        tr = create(item);
        tr.dataset.key = key;
      }
      update(tr, item);
      return tr;
    });
    if (rows.length !== tbody.children.length || rows.some((tr, i) => tbody.children[i] !== tr)) {
      tbody.replaceChildren(...rows);
    }
  }

  function select(row) {
    selected = {queue: row.queue, group: row.group, mode: row.mode};
    history.replaceState(null, '', '#' + new URLSearchParams({queue: row.queue, group: row.group || ''}));
    buildDetails();
    refresh();
  }

  function selectedFromAddress() {
    const params = new URLSearchParams(location.hash.slice(1));
    return params.get('queue') ? {queue: params.get('queue'), group: params.get('group') || null} : null;
  }

  function isSelected(row) {
    return selected != null && selected.queue === row.queue && (selected.group || null) === (row.group || null);
  }

  function newQueueRow(row) {
    const key = {queue: row.queue, group: row.group, mode: row.mode};
    const cells = [
      el('td', {class: 'name'}, el('a', {class: 'queue-link', href: '#', onclick: e => {
        e.preventDefault();
        select(key);
      }}, row.queue), el('span', {class: 'badge paused-badge', hidden: ''}, 'paused'),
        el('span', {class: 'badge capped-badge', hidden: '', title: 'consumers wait at the queue\'s maxInflight'},
            'capped'),
        el('span', {class: 'badge limited-badge', hidden: '', title: 'the queue\'s rateLimit holds claims back'},
            'rate-limited'),
        el('span', {class: 'badge groups-badge', hidden: '',
          title: 'FIFO message groups with messages not yet settled (CamelReliableRedisGroupId)'}),
        el('span', {class: 'badge schedule-badge', hidden: '', title: 'the next tick of the queue\'s schedule'}),
        el('div', {class: 'error'})),
      el('td', {}, row.mode),
      el('td', {}, row.group || '—')
    ];
    for (const name of ['ready', 'inflight', 'delayed', 'dead', 'oldestReady', 'oldestInflight']) {
      cells.push(el('td', {class: 'number', 'data-count': name}));
    }
    cells.push(el('td', {},
        el('button', {class: 'pause', onclick: () => pause(key)}, 'Pause'),
        el('button', {class: 'resume', onclick: () => resume(key), hidden: ''}, 'Resume'),
        el('button', {class: 'redrive-all', onclick: () => redriveAll(key)}, 'Redrive dead'),
        el('button', {class: 'purge danger', onclick: () => purge(key)}, 'Purge')));
    return el('tr', {'data-queue': row.queue, 'data-group': row.group || '', 'data-mode': row.mode}, ...cells);
  }

  function updateQueueRow(tr, row) {
    tr.querySelector('div.error').textContent = row.error || '';
    const c = row.counts || {};
    for (const part of ['ready', 'inflight', 'delayed', 'dead']) {
      const cell = tr.querySelector('[data-count="' + part + '"]');
      cell.textContent = c[part] == null ? '—' : String(c[part]);
      cell.classList.toggle('dead-count', part === 'dead' && c.dead > 0);
    }
    // the engine reports 0 for the age of an empty section
    tr.querySelector('[data-count="oldestReady"]').textContent = c.ready ? age(c.oldestReadyAge) : '—';
    tr.querySelector('[data-count="oldestInflight"]').textContent = c.inflight ? age(c.oldestInflightAge) : '—';
    tr.querySelector('button.redrive-all').disabled = !c.dead;
    const paused = c.paused === 1;
    tr.querySelector('.paused-badge').hidden = !paused;
    tr.querySelector('.capped-badge').hidden = c.capped !== 1;
    tr.querySelector('.limited-badge').hidden = c.limited !== 1;
    const groups = tr.querySelector('.groups-badge');
    groups.hidden = !c.groups;
    groups.textContent = c.groups === 1 ? '1 FIFO group' : c.groups + ' FIFO groups';
    const schedule = tr.querySelector('.schedule-badge');
    schedule.hidden = c.nextTick == null;
    schedule.textContent = c.nextTick == null ? ''
        : 'next tick ' + new Date(c.nextTick).toISOString().slice(0, 19).replace('T', ' ') + ' UTC';
    tr.querySelector('button.pause').hidden = paused;
    tr.querySelector('button.resume').hidden = !paused;
    tr.classList.toggle('selected', isSelected(row));
  }

  function renderOverview(overview) {
    document.getElementById('prefix').textContent = overview.prefix;
    const incomplete = document.getElementById('incomplete');
    incomplete.hidden = overview.complete;
    incomplete.textContent = 'There may be more queues than shown: at most ' + overview.maxQueues
        + ' are shown, and a discovery stops after 10 million keys.';
    syncRows(document.querySelector('#queues tbody'), overview.queues,
        row => row.mode + ' ' + row.queue + ' ' + (row.group || ''), newQueueRow, updateQueueRow);
    document.getElementById('empty').hidden = overview.queues.length > 0;
  }

  function body(message) {
    const cell = [message.preview + (message.truncated ? '…' : '')];
    const headers = Object.entries(message.headers || {});
    if (headers.length > 0) {
      cell.push(el('div', {class: 'headers'}, headers.map(([name, value]) => name + ': ' + value).join('; ')));
    }
    return cell;
  }

  // Columns of each section: heading, the cell's content for a message, and the cell's class.
  const NONE = () => el('span', {class: 'muted'}, '—');
  const ID = ['Message id', m => m.messageId, 'id'];
  const DELIVERIES = ['Deliveries', m => String(m.deliveries), 'number'];
  const AGE = ['Age', m => age(m.age), 'number'];
  const BODY = ['Body', body, 'preview'];
  const SECTIONS = [
    {key: 'dead', title: 'Dead letters', redrive: true,
      columns: [ID, ['Failure', m => m.failure || NONE(), 'failure'], DELIVERIES, AGE, BODY]},
    {key: 'inflight', title: 'In flight',
      columns: [ID, ['Lease age', m => age(m.leaseAge), 'number'], DELIVERIES, ['Consumer', m => m.owner || NONE()],
        AGE, BODY]},
    {key: 'delayed', title: 'Delayed',
      columns: [ID, ['Due in', m => age(m.dueIn), 'number'], DELIVERIES,
        ['Last failure', m => m.failure || NONE(), 'failure'], AGE, BODY]},
    {key: 'ready', title: 'Ready', columns: [ID, AGE, DELIVERIES, BODY]}
  ];

  function buildDetails() {
    const panel = document.getElementById('details');
    panel.hidden = false;
    document.getElementById('details-title').textContent =
        label(selected.queue, selected.group) + (selected.mode ? ' — ' + selected.mode + ' mode' : '');
    document.getElementById('sections').replaceChildren(...SECTIONS.map(section => el('section', {},
        el('h3', {'data-heading': section.key}, section.title),
        el('table', {'data-section': section.key},
            el('thead', {}, el('tr', {}, ...section.columns.map(([heading, , className]) =>
                el('th', {class: className === 'number' ? 'number' : ''}, heading)),
                section.redrive ? el('th', {}, 'Action') : '')),
            el('tbody')))));
    document.querySelectorAll('#queues tbody tr').forEach(tr => tr.classList.toggle('selected',
        tr.dataset.queue === selected.queue && tr.dataset.group === (selected.group || '')));
  }

  function renderDetails(details) {
    const queue = selected;
    if (!queue.mode) {
      queue.mode = details.mode;
      buildDetails();
    }
    for (const section of SECTIONS) {
      const messages = details.sections[section.key];
      // null when another program wrote a key or a message the engine cannot read; the cause is in unreadable
      const total = details.counts ? details.counts[section.key] : '?';
      const cause = details.unreadable[section.key];
      document.querySelector('[data-heading="' + section.key + '"]').textContent = section.title + ' (' + total
          + (total > messages.length ? ', the oldest ' + messages.length + ' shown' : '') + ')'
          + (cause ? ' — not read: ' + cause : '');
      syncRows(document.querySelector('table[data-section="' + section.key + '"] tbody'), messages,
          message => message.messageId,
          message => el('tr', {}, ...section.columns.map(([, , className]) => el('td', {class: className || ''})),
              section.redrive ? el('td', {}, el('button', {class: 'redrive-one',
                onclick: () => redriveOne(queue, message.messageId)}, 'Redrive')) : ''),
          (tr, message) => section.columns.forEach(([, content], i) => {
            const value = content(message);
            tr.children[i].replaceChildren(...(Array.isArray(value) ? value : [value]));
          }));
    }
  }

  async function refreshDetails() {
    if (selected == null) {
      return;
    }
    const shown = selected;
    try {
      const details = await getJson('api/queue?' + new URLSearchParams({queue: shown.queue,
        group: shown.group || ''}));
      if (shown === selected) {
        renderDetails(details);
      }
    } catch (e) {
      if (e.status === 404 && shown === selected) {
        selected = null;
        document.getElementById('details').hidden = true;
      }
      throw e;
    }
  }

  async function refresh() {
    try {
      renderOverview(await getJson('api/queues'));
      await refreshDetails();
      status('updated ' + new Date().toLocaleTimeString(), false);
    } catch (e) {
      status('not updated: ' + e.message, true);
    }
  }

  async function poll() {
    await refresh();
    setTimeout(poll, POLL_MS);
  }

  // a read-only dashboard refuses actions: the page shows no buttons for them
  getJson('api/settings').then(settings => {
    document.body.classList.toggle('read-only', settings.readOnly);
    document.getElementById('read-only').hidden = !settings.readOnly;
  }).catch(e => status('not updated: ' + e.message, true));
  selected = selectedFromAddress();
  if (selected != null) {
    buildDetails();
  }
  poll();
})();
