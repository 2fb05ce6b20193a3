import { readFileSync, readdirSync } from "node:fs";

/** A process as Linux's /proc shows it: its id, its parent's and its command line. */
export interface ProcessInfo {
  pid: number;
  ppid: number;
  command: string;
}

function info(pid: number): ProcessInfo | undefined {
  try {
    // /proc/PID/stat: "pid (comm) state ppid …"; comm may hold spaces and parentheses, so read after the last ")".
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    const command = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ").trim();
    return { pid, ppid, command };
  } catch {
    return undefined; // it ended while we looked
  }
}

/** Every process below `root` (children, their children, …), as they are at this moment. Linux only. */
export function descendants(root: number): ProcessInfo[] {
  const all = readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .map((name) => info(Number(name)))
    .filter((p): p is ProcessInfo => p !== undefined);
  const below: ProcessInfo[] = [];
  const parents = new Set([root]);
  for (let grew = true; grew;) {
    grew = false;
    for (const p of all) {
      if (parents.has(p.ppid) && !parents.has(p.pid)) {
        parents.add(p.pid);
        below.push(p);
        grew = true;
      }
    }
  }
  return below;
}
