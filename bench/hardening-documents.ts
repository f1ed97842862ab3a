// The chat's crafted documents and its day, probed over HTTP against `npm start`'s server (called by
// bench/hardening.ts with the server it started): each crafted file of the fourth review sent as a visitor would,
// with the chat function's own process watched from /proc while it answers — wall time, CPU time, resident
// memory (peak and growth), its threads before and after, its CPU in the second after the answer — then an
// ordinary question. The chat talks to the OpenAI-compatible stand-in of the tests. Each probe comes from a
// loopback address of its own (127.0.0.x), so the per-client limits of one do not touch another.
import { readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import { startFakeOpenAI } from '../tests/support/fake-openai';
import { MIME, makeDocxBomb, makeDocxHidingAnEntry, makeLoopingDoc, makePdf, makePdfWithHugeStream } from '../tests/support/documents';

const TICK_MS = 10; // /proc/<pid>/stat counts CPU in clock ticks of 1/100 s (getconf CLK_TCK)
const MB = 1024 * 1024;
const round = (x: number) => Math.round(x);

/** The chat function's process: a child of this one whose entry is the bundled chat function. */
function chatFunctionPid(): number | null {
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const status = readFileSync(`/proc/${name}/status`, 'utf8');
      if (Number(/^PPid:\s+(\d+)/m.exec(status)?.[1]) !== process.pid) continue;
      if (/NETLIFY_PLAY_ENTRY_PATH=[^\0]*\/chat\/netlify\/functions\/chat\.mjs/.test(readFileSync(`/proc/${name}/environ`, 'utf8'))) return Number(name);
    } catch {
      // a process that ended meanwhile, or not ours
    }
  }
  return null;
}

function processStats(pid: number) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return {
    rssBytes: Number(/^VmRSS:\s+(\d+) kB/m.exec(status)![1]) * 1024,
    threads: Number(/^Threads:\s+(\d+)/m.exec(status)![1]),
    cpuMs: (Number(fields[11]) + Number(fields[12])) * TICK_MS, // utime + stime
  };
}

/** POSTs JSON to the site from a given loopback address; the whole answer, with its time. */
function postFrom(base: string, localAddress: string, path: string, body: unknown): Promise<{ status: number; text: string; ms: number }> {
  const url = new URL(path, base);
  const payload = Buffer.from(JSON.stringify(body));
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: url.hostname, port: url.port, path: url.pathname, method: 'POST', localAddress, headers: { 'content-type': 'application/json', 'content-length': payload.length, origin: base, 'sec-fetch-site': 'same-origin' } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8'), ms: round(performance.now() - started) }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

const question = (content: unknown) => ({ agentId: 'market-research', model: 'deepseek/deepseek-chat-v3.1', messages: [{ role: 'user', content }] });
const withFile = (filename: string, mime: string, bytes: Buffer) =>
  question([{ type: 'text', text: `[${filename}] Summarise it` }, { type: 'file', file: { filename, file_data: `data:${mime};base64,${bytes.toString('base64')}` } }]);

/** What the visitor saw: the refusal's text, or the read document's last line (the cut note) and the reply's end. */
function answerOf(status: number, text: string): string {
  if (status !== 200) return String((JSON.parse(text) as { error?: string }).error ?? text).slice(0, 160);
  const events = text.split('\n').filter((l) => l.startsWith('data: ')).map((l) => JSON.parse(l.slice(6)) as Record<string, unknown>);
  const document = (events.find((e) => e.document)?.document as { text?: string } | undefined)?.text ?? '';
  return `${document.split('\n').at(-1)?.slice(0, 160)} … ${JSON.stringify(events.at(-1))}`;
}

export async function benchChatDocuments(base: string) {
  const fake = await startFakeOpenAI();
  // The chat function's process starts on its first request and takes the environment then.
  Object.assign(process.env, { CHAT_API_KEY: 'sk-or-v1-bench', CHAT_API_BASE_URL: fake.baseUrl });
  try {
    const warm = await postFrom(base, '127.0.0.4', '/api/chat', question('Hello'));
    const pid = chatFunctionPid();
    if (warm.status !== 200 || pid === null) throw new Error(`the chat function did not answer (${warm.status}: ${warm.text.slice(0, 200)})`);

    const bomb = await makeDocxBomb();
    const files: Array<[string, string, Buffer]> = [
      ['2 KB .doc, sector chain 1 → 2 → 1', 'minutes.doc', makeLoopingDoc()],
      ['1 MB .docx declaring 1.6 KB, 1 GB inflated', 'report.docx', bomb],
      ['the same bytes named .doc', 'report.doc', bomb],
      ['the same bytes named .xlsx', 'report.xlsx', bomb],
      ['.docx whose end record hides an entry (200 MB)', 'hidden.docx', await makeDocxHidingAnEntry()],
      ['8,000-page PDF', 'long.pdf', makePdf(Array.from({ length: 8_000 }, (_, i) => `word${i + 1}`))],
      ['PDF whose one stream inflates to 100 MB', 'stream.pdf', makePdfWithHugeStream(100)],
    ];
    const mime = (name: string) => MIME[name.split('.').pop() as keyof typeof MIME];
    const crafted = [];
    for (const [what, name, bytes] of files) {
      const before = processStats(pid);
      let peak = before.rssBytes;
      const watch = setInterval(() => {
        peak = Math.max(peak, processStats(pid).rssBytes);
      }, 10);
      const answer = await postFrom(base, '127.0.0.3', '/api/chat', withFile(name, mime(name), bytes));
      clearInterval(watch);
      const after = processStats(pid);
      peak = Math.max(peak, after.rssBytes);
      // Nothing left running: the process's CPU over the next second, and its threads back to what they were.
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      const idle = processStats(pid);
      const normal = await postFrom(base, '127.0.0.4', '/api/chat', question('Hello again'));
      crafted.push({
        file: what,
        bytes: bytes.length,
        status: answer.status,
        answer: answerOf(answer.status, answer.text),
        wallMs: answer.ms,
        functionCpuMs: after.cpuMs - before.cpuMs,
        rssBeforeMB: round(before.rssBytes / MB),
        peakRssMB: round(peak / MB),
        peakGrowthMB: round((peak - before.rssBytes) / MB),
        threadsBefore: before.threads,
        threadsAfterASecond: idle.threads,
        functionCpuMsInTheSecondAfter: idle.cpuMs - after.cpuMs,
        normalRequestAfter: { status: normal.status, wallMs: normal.ms },
      });
    }

    // The review's first finding: 16 requests of 150 empty image parts (three in each of 50 messages) from one
    // address, then "Hello" from another.
    const emptyImage = { type: 'image_url', image_url: { url: 'data:image/png;base64,' } };
    const flood = {
      agentId: 'market-research',
      model: 'meta-llama/llama-3.3-70b-instruct:free',
      messages: Array.from({ length: 50 }, (_, i) => (i % 2 === 0 || i === 49 ? { role: 'user', content: [{ type: 'text', text: 'look' }, emptyImage, emptyImage, emptyImage] } : { role: 'assistant', content: 'ok' })),
    };
    const statuses: number[] = [];
    for (let i = 0; i < 16; i++) statuses.push((await postFrom(base, '127.0.0.5', '/api/chat', flood)).status);
    const hello = await postFrom(base, '127.0.0.6', '/api/chat', { ...question('Hello'), model: 'meta-llama/llama-3.3-70b-instruct:free' });

    return {
      note: 'figures from a shared 2-core host under load from other work: wall time varies, CPU time less so',
      crafted,
      emptyImageFlood: {
        bodyBytes: JSON.stringify(flood).length,
        statuses: [...new Set(statuses)].map((s) => ({ status: s, count: statuses.filter((x) => x === s).length })),
        helloFromAnotherAddress: hello.status,
      },
      target: { answeredWithinMs: 12_000, peakRssMB: '< 1024', peakGrowthMB: '< 300', normalRequestAfter: 200, helloFromAnotherAddress: 200 },
    };
  } finally {
    await fake.close();
  }
}

// Alone: npx tsx bench/hardening-documents.ts (the same probes against a server of their own).
if (import.meta.url === `file://${process.argv[1]}`) {
  const [{ mkdtempSync, rmSync }, os, path, { fileURLToPath }, { startEmbeddedServices }, { startSiteServer }, { jsonOnlyStdout }] = await Promise.all([
    import('node:fs'),
    import('node:os'),
    import('node:path'),
    import('node:url'),
    import('../scripts/platform/embedded/embedded-services'),
    import('../scripts/platform/server'),
    import('./stdout'),
  ]);
  const printJson = jsonOnlyStdout();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'lumora-bench-chat-'));
  const services = await startEmbeddedServices({ dataDir });
  const server = await startSiteServer({ root: path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..'), port: 0 });
  try {
    printJson({ date: new Date().toISOString(), node: process.version, chatDocuments: await benchChatDocuments(server.url) });
  } finally {
    await server.close();
    await services.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
