import { readdirSync, readFileSync } from 'node:fs';

/** A process as /proc shows it (Linux: the tests that use this run there, as CI does). */
export interface ProcInfo {
  pid: number;
  ppid: number;
  cmdline: string;
}

function readProc(pid: number): (ProcInfo & { environ: string }) | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name may hold spaces and parentheses: the fields after the last ")" are fixed.
    const after = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (after[0] === 'Z') return undefined; // a zombie has exited already
    return {
      pid,
      ppid: Number(after[1]),
      cmdline: readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim(),
      environ: readFileSync(`/proc/${pid}/environ`, 'utf8'),
    };
  } catch {
    return undefined; // gone meanwhile, or not ours to read
  }
}

function all(): (ProcInfo & { environ: string })[] {
  return readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .map((d) => readProc(Number(d)))
    .filter((p) => p !== undefined);
}

/** Every live process started for this KAIROS_HOME: daemons and their children (they inherit the environment). */
export function processesOfHome(home: string): ProcInfo[] {
  return all()
    .filter((p) => p.environ.split('\0').includes(`KAIROS_HOME=${home}`) && p.pid !== process.pid)
    .map(({ pid, ppid, cmdline }) => ({ pid, ppid, cmdline }));
}

export function isAlive(pid: number): boolean {
  return readProc(pid) !== undefined;
}

/** Poll until `check` holds (true) or the time is up (false). */
export async function eventually(check: () => boolean | Promise<boolean>, timeoutMs: number, everyMs = 100): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
