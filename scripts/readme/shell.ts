/**
 * One terminal for the README runner: a bash process in a folder of its own, fed one command line at a
 * time as a reader pastes them, so a variable, a function or a cookie jar one line makes serves the lines
 * after it. Each line reads no input (`</dev/null`) and its output and exit status are collected; a server
 * line runs in the background, its output in a log file, until its own text says it is ready.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const DONE = '__readme_line_done__';

export interface LineResult {
  status: number;
  output: string;
}

export interface Server {
  command: string;
  pid: number;
  log: string;
}

/**
 * A folder beside the repository that sees every file of it but `data/` (its own, empty), `.git` and the
 * git-ignored outputs of earlier runs: the commands run in it as in a fresh clone whose `npm ci` ran.
 */
export function scratchFolder(root: string): { dir: string; remove(): void } {
  const dir = mkdtempSync(path.join(tmpdir(), 'readme-'));
  for (const entry of readdirSync(root)) {
    if (entry === 'data' || entry === '.git') continue;
    symlinkSync(path.join(root, entry), path.join(dir, entry));
  }
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** What a reader's terminal holds: no variable of a test run or a service's settings. */
export function readerEnv(): Record<string, string> {
  const keep = ['PATH', 'HOME', 'USER', 'LANG', 'LC_ALL', 'TMPDIR', 'TERM', 'SHELL', 'JAVA_HOME', 'GOPATH'];
  const env: Record<string, string> = {};
  for (const name of keep) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  // No colours in what the runner reads back.
  return { ...env, NO_COLOR: '1', FORCE_COLOR: '0', CI: '1' };
}

export class Shell {
  private readonly bash: ChildProcessWithoutNullStreams;
  private buffer = '';
  private waiting: ((text: string) => void) | undefined;
  private servers: Server[] = [];
  private exited: string | undefined;
  /** Everything every line and server printed so far, for the placeholders' patterns. */
  transcript = '';

  constructor(readonly cwd: string) {
    this.bash = spawn('bash', ['--noprofile', '--norc'], { cwd, env: readerEnv() });
    this.bash.on('exit', (code, signal) => {
      this.exited = `the shell exited (${signal ?? code}) after:\n${this.buffer.slice(-1500)}`;
      this.waiting = undefined;
      this.fail?.(new Error(this.exited));
    });
    this.bash.stdin.on('error', () => {
      // The shell is gone: 'exit' says so.
    });
    this.bash.stdout.on('data', (chunk: Buffer) => this.take(chunk.toString()));
    this.bash.stderr.on('data', (chunk: Buffer) => this.take(chunk.toString()));
    // Background jobs get process groups of their own, so a server stops with every process it started.
    this.bash.stdin.write('set -m\n');
  }

  private take(text: string): void {
    this.buffer += text;
    const at = this.buffer.indexOf(`${DONE} `);
    if (at >= 0 && this.buffer.indexOf('\n', at) > 0 && this.waiting) {
      const resolve = this.waiting;
      this.waiting = undefined;
      const end = this.buffer.indexOf('\n', at);
      const text = this.buffer.slice(0, end + 1);
      this.buffer = this.buffer.slice(end + 1);
      resolve(text);
    }
  }

  private fail: ((error: Error) => void) | undefined;

  private send(script: string): Promise<string> {
    return new Promise((resolve, reject) => {
      if (this.exited) return reject(new Error(this.exited));
      this.waiting = resolve;
      this.fail = reject;
      this.bash.stdin.write(script);
    });
  }

  /** Runs one command line as a reader's terminal would, reading no input. */
  async run(line: string): Promise<LineResult> {
    // `:` first, so a line that is only a comment makes a group bash accepts.
    const text = await this.send(`{ :\n${line}\n} </dev/null 2>&1\nprintf '\\n${DONE} %s\\n' "$?"\n`);
    const at = text.lastIndexOf(`${DONE} `);
    const status = Number(text.slice(at + DONE.length + 1).trim());
    const output = text.slice(0, at).replace(/\n$/, '');
    this.transcript += `${output}\n`;
    return { status, output };
  }

  /** Starts a server line in the background; resolves once its output holds `ready`. */
  async start(line: string, ready: string, timeoutMs = 180_000): Promise<Server> {
    const log = path.join(this.cwd, `.readme-server-${this.servers.length}.log`);
    const text = await this.send(
      `{ :\n${line}\n} </dev/null >${JSON.stringify(log)} 2>&1 &\nprintf '\\n${DONE} %s\\n' "$!"\n`,
    );
    const pid = Number(text.slice(text.lastIndexOf(`${DONE} `) + DONE.length + 1).trim());
    const server = { command: line, pid, log };
    this.servers.push(server);
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const output = existsSync(log) ? readFileSync(log, 'utf8') : '';
      if (output.includes(ready)) return server;
      const problem = !alive(pid)
        ? `the server stopped before saying "${ready}"`
        : Date.now() > deadline
          ? `no "${ready}" from the server in ${timeoutMs / 1000} s`
          : undefined;
      if (problem) {
        await this.stop(server);
        throw new Error(`${problem}:\n${output.slice(-2000)}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  /** Stops a server with SIGTERM (its whole process group); resolves with its exit status and output. */
  async stop(server: Server): Promise<LineResult> {
    const result = await this.run(`kill -TERM -- -${server.pid} 2>/dev/null; wait ${server.pid}`);
    this.servers = this.servers.filter((s) => s !== server);
    const output = existsSync(server.log) ? readFileSync(server.log, 'utf8') : '';
    this.transcript += output;
    return { status: result.status, output };
  }

  /** The output of the servers still running, for the placeholders' patterns. */
  serverOutput(): string {
    return this.servers.map((s) => (existsSync(s.log) ? readFileSync(s.log, 'utf8') : '')).join('\n');
  }

  running(): Server[] {
    return [...this.servers];
  }

  async close(): Promise<void> {
    for (const server of this.servers) {
      try {
        process.kill(-server.pid, 'SIGKILL');
      } catch {
        // Gone already.
      }
    }
    this.bash.stdin.end('exit\n');
    await new Promise((resolve) => this.bash.once('exit', resolve));
  }
}

/** Whether a process runs (a finished one the shell has not waited for yet is a zombie, state Z). */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}
