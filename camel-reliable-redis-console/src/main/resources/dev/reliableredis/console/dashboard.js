'use strict';
// Everything read from Redis reaches the page as text nodes (textContent, append of strings), never as markup.
(function () {
  const POLL_MS = 2000;

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

  async function getJson(path) {
    const response = await fetch(path, {cache: 'no-store'});
    const body = await response.json();
    if (!response.ok) {
      throw new Error(body.error || 'HTTP ' + response.status);
    }
    return body;
  }

  async function act(path, body, done) {
    try {
      const response = await fetch(path, {
        method: 'POST',
        headers: {'Content-Type': 'application/json'},
        body: JSON.stringify(body)
      });
      const result = await response.json();
      if (!response.ok) {
        throw new Error(result.error || 'HTTP ' + response.status);
      }
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

  function purge(row) {
    if (!confirm('Purge ' + label(row.queue, row.group) + '? Every ready, delayed and dead message is removed; '
        + 'messages in flight finish normally.')) {
      return;
    }
    act('api/purge', {queue: row.queue, group: row.group},
        result => 'Purged ' + result.removed + ' message(s) of ' + label(row.queue, row.group));
  }

  function setCount(cell, value, alarm) {
    cell.textContent = value == null ? '—' : String(value);
    cell.classList.toggle('dead-count', Boolean(alarm && value > 0));
  }

  function newQueueRow(queue, group, mode) {
    const row = {queue: queue, group: group};
    const redrive = el('button', {class: 'redrive-all', onclick: () => redriveAll(row)}, 'Redrive dead');
    const purgeButton = el('button', {class: 'purge danger', onclick: () => purge(row)}, 'Purge');
    const cells = [el('td', {class: 'name'}), el('td', {}, mode), el('td', {}, group || '—')];
    for (const name of ['ready', 'inflight', 'delayed', 'dead', 'oldest']) {
      cells.push(el('td', {class: 'number', 'data-count': name}));
    }
    cells.push(el('td', {}, redrive, purgeButton));
    return el('tr', {'data-queue': queue, 'data-group': group || '', 'data-mode': mode}, ...cells);
  }

  // rows are updated in place, so that a button is not replaced under the pointer between two polls
  function updateQueueRow(tr, row) {
    const name = tr.querySelector('td.name');
    name.replaceChildren(row.queue);
    if (row.error) {
      name.append(el('div', {class: 'error'}, row.error));
    }
    const c = row.counts || {};
    for (const part of ['ready', 'inflight', 'delayed', 'dead']) {
      setCount(tr.querySelector('[data-count="' + part + '"]'), c[part], part === 'dead');
    }
    const oldest = c.oldestReadyAge != null ? c.oldestReadyAge : c.oldestPendingAge;
    tr.querySelector('[data-count="oldest"]').textContent = age(oldest);
    tr.querySelector('button.redrive-all').disabled = !c.dead;
  }

  function renderOverview(overview) {
    document.getElementById('prefix').textContent = overview.prefix;
    const incomplete = document.getElementById('incomplete');
    incomplete.hidden = overview.complete;
    incomplete.textContent = 'Showing the first ' + overview.maxQueues + ' queues found: there may be more.';
    const tbody = document.querySelector('#queues tbody');
    const existing = new Map();
    for (const tr of tbody.children) {
      existing.set(tr.dataset.mode + ' ' + tr.dataset.queue + ' ' + tr.dataset.group, tr);
    }
    const rows = overview.queues.map(row => {
      const key = row.mode + ' ' + row.queue + ' ' + (row.group || '');
      const tr = existing.get(key) || newQueueRow(row.queue, row.group, row.mode);
      updateQueueRow(tr, row);
      return tr;
    });
    if (rows.length !== tbody.children.length || rows.some((tr, i) => tbody.children[i] !== tr)) {
      tbody.replaceChildren(...rows);
    }
    document.getElementById('empty').hidden = overview.queues.length > 0;
  }

  async function refresh() {
    try {
      renderOverview(await getJson('api/queues'));
      status('updated ' + new Date().toLocaleTimeString(), false);
    } catch (e) {
      status('not updated: ' + e.message, true);
    }
  }

  async function poll() {
    await refresh();
    setTimeout(poll, POLL_MS);
  }

  poll();
})();
