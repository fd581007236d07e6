// BullMQ contender for the reliable-queue benchmark.
//
//   node bench.mjs '{"port":6399,"messages":100000,"queued":100000,"consumers":8,"producers":8,
//                    "latency":true,"rate":0,"idleSamples":1000,"loadedSeconds":5}'
//
// Uses BullMQ the way its users would for a reliable queue: Queue.add per
// message (awaited, like a plain send), one Worker with `concurrency`, jobs
// removed on completion. Prints one `RESULT {json}` line on stdout; logs go
// to stderr.
import { createRequire } from 'node:module';
import { Queue, Worker } from 'bullmq';
import IORedis from 'ioredis';

const require = createRequire(import.meta.url);
const BULLMQ_VERSION = require('bullmq/package.json').version;

const spec = {
  port: 6399, messages: 100000, queued: 0, consumers: 8, producers: 8, latency: true,
  rate: 0, idleSamples: 1000, loadedSeconds: 5, warmup: 0,
  // BullMQ's own default is attempts: 1 (a failed job is NOT retried), so a
  // user wanting redelivery sets attempts; 3 is a typical choice.
  attempts: 3,
  // Give up waiting when no job has finished for this long (lost messages).
  stallTimeoutMs: 60000,
  ...JSON.parse(process.argv[2] || '{}'),
};
const QUEUE = 'bench';
const PAYLOAD_LEN = 100;
// The port/host the caller's Redis listens on. Workers need
// maxRetriesPerRequest: null (blocking commands must not be retried away).
const connection = { host: '127.0.0.1', port: spec.port, maxRetriesPerRequest: null };
const jobOpts = { removeOnComplete: true, attempts: spec.attempts };

const log = (...a) => console.error('[bullmq]', ...a);
const now = () => process.hrtime.bigint();
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// 100-byte payload whose first 10 chars are the index, zero-padded.
const payload = (i) => String(i).padStart(10, '0').padEnd(PAYLOAD_LEN, 'x');
const indexOf = (data) => Number(data.slice(0, 10));
// Indexes of the warm-up jobs of a latency run: above every measured index.
const WARMUP_BASE = 1_000_000_000;

// Plain client for measurements (INFO, DBSIZE, FLUSHALL), separate from
// BullMQ's own connections. It gives up quickly, so an unreachable Redis
// fails the run (exit 1) instead of retrying forever.
const admin = new IORedis({
  host: connection.host, port: connection.port,
  maxRetriesPerRequest: 1, retryStrategy: (n) => (n > 3 ? null : 200),
});

async function info(section, field) {
  const text = await admin.info(section);
  const m = text.match(new RegExp(`^${field}:(\\S+)`, 'm'));
  if (!m) throw new Error(`INFO ${section} has no ${field}`);
  return Number(m[1]);
}
const usedMemory = () => info('memory', 'used_memory');
const usedCpu = async () => (await info('cpu', 'used_cpu_sys')) + (await info('cpu', 'used_cpu_user'));

const newQueue = async () => {
  const q = new Queue(QUEUE, { connection, defaultJobOptions: jobOpts });
  await q.waitUntilReady();
  return q;
};

// Resolves once cond() holds; rejects when progress() stops changing for
// stallTimeoutMs (so a lost message ends the run instead of hanging it).
async function waitUntil(cond, progress, what) {
  let last = progress(), lastChange = Date.now();
  while (!cond()) {
    await sleep(2);
    const p = progress();
    if (p !== last) { last = p; lastChange = Date.now(); }
    else if (Date.now() - lastChange > spec.stallTimeoutMs) {
      log(`${what}: no progress for ${spec.stallTimeoutMs} ms, giving up at ${p}`);
      return false;
    }
  }
  return true;
}

function percentiles(samplesNs) {
  const s = Float64Array.from(samplesNs).sort();
  const at = (q) => s.length ? s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)] : NaN;
  const ms = (ns) => Number((ns / 1e6).toFixed(3));
  return { p50: ms(at(0.5)), p99: ms(at(0.99)), p999: ms(at(0.999)) };
}

const cpuMicros = () => { const u = process.cpuUsage(); return u.user + u.system; };

// Sends `count` jobs from `producers` loops, one queue.add per job, awaited.
async function produce(queue, count, base = 0) {
  await Promise.all(Array.from({ length: spec.producers }, async (_, p) => {
    const from = Math.floor(p * count / spec.producers), to = Math.floor((p + 1) * count / spec.producers);
    for (let i = from; i < to; i++) await queue.add('msg', payload(base + i));
  }));
}

// 1. Send-only, memory and drain: `queued` jobs sent with no worker running (send-only rate, bytes Redis holds per
// queued job), then a worker drains them (drain rate, Redis and client CPU per job).
async function queuedPhase() {
  const n = spec.queued;
  const queue = await newQueue();
  const before = await usedMemory();
  let t0 = now();
  await produce(queue, n);
  const sendOnlyMsgsPerSec = Math.round(n / (Number(now() - t0) / 1e9));
  const bytesPerQueued = Number(((await usedMemory() - before) / n).toFixed(1));
  const received = new Uint8Array(n);
  let distinct = 0, completed = 0;
  const cpuBefore = await usedCpu();
  const clientBefore = cpuMicros();
  t0 = now();
  const worker = new Worker(QUEUE, async (job) => {
    const i = indexOf(job.data);
    if (i < n && received[i]++ === 0) distinct++;
  }, { connection, concurrency: spec.consumers });
  worker.on('completed', () => { completed++; });
  await waitUntil(() => completed >= n, () => completed, 'drain');
  const seconds = Number(now() - t0) / 1e9;
  const out = {
    sendOnlyMsgsPerSec, bytesPerQueued,
    drainMsgsPerSec: Math.round(n / seconds),
    drainCpuUsPerMsg: Number(((await usedCpu() - cpuBefore) * 1e6 / n).toFixed(2)),
    drainClientCpuUsPerMsg: Number(((cpuMicros() - clientBefore) / n).toFixed(2)),
    drainLost: n - distinct,
  };
  await worker.close();
  await queue.close();
  await admin.flushall();
  return out;
}

async function main() {
  const { messages, consumers, producers } = spec;
  await admin.flushall();
  log(`bullmq ${BULLMQ_VERSION}, spec ${JSON.stringify(spec)}`);

  const result = { contender: 'bullmq', bullmqVersion: BULLMQ_VERSION, consumers, producers, messages };
  if (spec.queued > 0) {
    Object.assign(result, await queuedPhase());
    log(`send-only, memory, drain: ${JSON.stringify(result)}`);
  }

  // 2. Throughput: produce, consume and ack concurrently.
  const queue = await newQueue();
  const received = new Uint32Array(messages); // receptions per index
  let distinct = 0, completed = 0;
  // Latency jobs (index >= messages): processor start times.
  const waiters = new Map(); // index -> resolve(startNs) for idle samples
  let loadedBase = Infinity, loadedStart = null, loadedSeen = 0;

  const cpuBefore = await usedCpu();
  const memBefore = await usedMemory();

  const worker = new Worker(QUEUE, async (job) => {
    const t = now();
    const i = indexOf(job.data);
    if (i < messages) {
      if (received[i]++ === 0) distinct++;
    } else if (i >= loadedBase) {
      loadedStart[i - loadedBase] = t;
      loadedSeen++;
    } else {
      waiters.get(i)?.(t);
    }
    // no-op otherwise: returning acks the job (moves it to completed,
    // which removeOnComplete deletes).
  }, { connection, concurrency: consumers });
  worker.on('error', (e) => log('worker error', e));
  worker.on('completed', () => { completed++; });
  await worker.waitUntilReady();

  if (messages > 0) await throughputPhase();

  async function throughputPhase() {
    const clientBefore = cpuMicros();
    const t0 = now();
    await produce(queue, messages);
    log(`produced ${messages} in ${(Number(now() - t0) / 1e9).toFixed(2)} s`);
    // Done when every index was received and every job's completion was
    // written back to Redis (the 'completed' event follows moveToCompleted).
    await waitUntil(() => distinct === messages && completed >= messages,
      () => completed, 'throughput');
    const seconds = Number(now() - t0) / 1e9;
    const active = await queue.getActiveCount();
    if (active) log(`warning: ${active} jobs still active`);

    const cpuAfter = await usedCpu();
    const memAfter = await usedMemory();
    const leftKeys = await admin.dbsize();
    let duplicates = 0;
    for (const c of received) if (c > 1) duplicates += c - 1;
    Object.assign(result, {
      seconds: Number(seconds.toFixed(3)),
      msgsPerSec: Math.round(messages / seconds),
      cpuUsPerMsg: Number(((cpuAfter - cpuBefore) * 1e6 / messages).toFixed(2)),
      clientCpuUsPerMsg: Number(((cpuMicros() - clientBefore) / messages).toFixed(2)),
      lost: messages - distinct,
      duplicates,
      leftKeys,
      leftBytesPerMsg: Number(((memAfter - memBefore) / messages).toFixed(1)),
    });
    log(`throughput: ${JSON.stringify(result)}`);
  }

  if (spec.latency) {
    if (spec.warmup > 0) {
      // Unmeasured jobs first, as the JVM contenders send: latency of a
      // warmed-up worker, not of V8's compiler. Their indexes are above any
      // measured one, and nobody waits for them.
      const before = completed;
      await Promise.all(Array.from({ length: producers }, async (_, p) => {
        for (let k = p; k < spec.warmup; k += producers) await queue.add('msg', payload(WARMUP_BASE + k));
      }));
      await waitUntil(() => completed >= before + spec.warmup, () => completed, 'warm-up');
      result.warmup = spec.warmup;
    }
    // 3a. Idle latency: one job at a time into an idle queue, from just
    // before queue.add to the processor starting it.
    const idle = [];
    for (let k = 0; k < spec.idleSamples; k++) {
      const i = messages + k;
      const started = new Promise((r) => waiters.set(i, r));
      const t = now();
      await queue.add('msg', payload(i));
      idle.push(Number((await started) - t));
      waiters.delete(i);
    }
    const ip = percentiles(idle);
    Object.assign(result, { idleP50: ip.p50, idleP99: ip.p99, idleP999: ip.p999 });
    log(`idle latency (${idle.length} samples): ${JSON.stringify(ip)}`);

    if (spec.rate > 0) {
      // 3b. Loaded latency: jobs due at t0 + k/rate, measured from the due
      // time (not the actual add) so a slow add cannot hide its own delay.
      // Several loops share one counter, so a slow add only holds up its
      // own loop while the others keep to the schedule.
      const n = Math.round(spec.rate * spec.loadedSeconds);
      loadedStart = new BigInt64Array(n);
      loadedBase = messages + spec.idleSamples;
      const periodNs = 1e9 / spec.rate;
      const loops = Math.min(64, Math.max(4, Math.ceil(spec.rate / 250)));
      let next = 0;
      const start = now() + 10_000_000n; // 10 ms head start for all loops
      const due = (k) => start + BigInt(Math.round(k * periodNs));
      await Promise.all(Array.from({ length: loops }, async () => {
        for (let k = next++; k < n; k = next++) {
          // setTimeout has ~1 ms granularity; lateness here counts as latency.
          const waitMs = Number(due(k) - now()) / 1e6;
          if (waitMs > 0) await sleep(waitMs);
          await queue.add('msg', payload(loadedBase + k));
        }
      }));
      const ok = await waitUntil(() => loadedSeen >= n, () => loadedSeen, 'loaded latency');
      const samples = [];
      for (let k = 0; k < n; k++) if (loadedStart[k] !== 0n) samples.push(Number(loadedStart[k] - due(k)));
      if (!ok) log(`loaded latency: only ${samples.length}/${n} jobs started`);
      const lp = percentiles(samples);
      Object.assign(result, { loadedRate: spec.rate, loadedP50: lp.p50, loadedP99: lp.p99, loadedP999: lp.p999 });
      log(`loaded latency at ${spec.rate}/s (${samples.length} samples, ${loops} loops): ${JSON.stringify(lp)}`);
    }
  }

  // 4. Clean shutdown: close() waits for in-flight jobs to finish.
  await worker.close();
  await queue.close();
  await admin.quit();
  process.stdout.write(`RESULT ${JSON.stringify(result)}\n`);
}

main().then(
  () => process.exit(0),
  (e) => { console.error(e); process.exit(1); },
);
