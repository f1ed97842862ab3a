import { existsSync, renameSync, writeFileSync } from 'node:fs';

// A background function: waits for the `release` file, then writes `done` with its process id. Written
// beside it and renamed, so the test never sees `done` created but still empty.
export default async (req: Request) => {
  const { release, done } = (await req.json()) as { release: string; done: string };
  while (!existsSync(release)) await new Promise((r) => setTimeout(r, 20));
  writeFileSync(`${done}.part`, String(process.pid));
  renameSync(`${done}.part`, done);
};
