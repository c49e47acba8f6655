/**
 * How the setup detection looks at the machine: files through a root folder (the real `/`, or a fake
 * tree in tests) and tool runs through a runner (real processes, or canned results in tests).
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

export interface ToolResult {
  /** The exit code; null when the tool could not start, was killed, or ran out of time. */
  code: number | null;
  stdout: string;
}

export type Runner = (command: string, args: string[], timeoutMs: number) => Promise<ToolResult>;

export interface Probe {
  platform: NodeJS.Platform;
  arch: string;
  isFile(file: string): boolean;
  exists(file: string): boolean;
  readText(file: string): string | undefined;
  /** Regular files directly inside a folder, with their sizes; [] when it cannot be read. */
  files(dir: string): { name: string; size: number }[];
  /** Entry names of a folder; [] when it cannot be read. */
  list(dir: string): string[];
  run: Runner;
}

const MAX_OUTPUT = 4 * 1024 * 1024;

/** Runs a tool with stdout kept (up to 4 MiB), stderr drained, and a hard time limit. */
export const runBounded: Runner = (command, args, timeoutMs) =>
  new Promise((resolve) => {
    let stdout = '';
    let settled = false;
    const done = (result: ToolResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    let child: ReturnType<typeof spawn>;
    try {
      child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    } catch {
      resolve({ code: null, stdout: '' });
      return;
    }
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      done({ code: null, stdout });
    }, timeoutMs);
    child.stdout?.on('data', (chunk: Buffer) => {
      if (stdout.length < MAX_OUTPUT) stdout += chunk.toString('utf8');
    });
    child.stderr?.resume();
    child.once('error', () => done({ code: null, stdout: '' }));
    child.once('close', (code) => done({ code, stdout }));
  });

export function hostProbe(
  options: { root?: string; run?: Runner; platform?: NodeJS.Platform; arch?: string } = {},
): Probe {
  const root = options.root ?? '/';
  const at = (file: string) => path.join(root, file);
  const stat = (file: string) => {
    try {
      return statSync(at(file));
    } catch {
      return undefined;
    }
  };
  return {
    platform: options.platform ?? process.platform,
    arch: options.arch ?? process.arch,
    isFile: (file) => stat(file)?.isFile() ?? false,
    // Device nodes are not regular files: existence is what counts for them.
    exists: (file) => stat(file) !== undefined,
    readText: (file) => {
      try {
        return readFileSync(at(file), 'utf8');
      } catch {
        return undefined;
      }
    },
    files: (dir) => {
      try {
        return readdirSync(at(dir), { withFileTypes: true }).flatMap((entry) => {
          const info = stat(path.join(dir, entry.name));
          return info?.isFile() ? [{ name: entry.name, size: info.size }] : [];
        });
      } catch {
        return [];
      }
    },
    list: (dir) => {
      try {
        return readdirSync(at(dir));
      } catch {
        return [];
      }
    },
    run: options.run ?? runBounded,
  };
}
