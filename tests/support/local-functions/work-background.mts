import { existsSync, writeFileSync } from 'node:fs';

// A background function: waits for the `release` file, then writes `done` with its body.
export default async (req: Request) => {
  const { release, done } = (await req.json()) as { release: string; done: string };
  while (!existsSync(release)) await new Promise((r) => setTimeout(r, 20));
  writeFileSync(done, String(process.pid));
};
