/**
 * Runs the marked blocks of one state in one terminal (shell.ts), in document order: each shell line as
 * written (its placeholders replaced by what earlier lines printed, where the mark says so), a ts or
 * python block as a file of its own with the language's runner. Says for each block what passed, failed
 * or was left out, and why.
 */
import { cpSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { type Block, placeholdersIn, shellLines } from './blocks';
import type { Shell } from './shell';

export interface BlockOutcome {
  where: string;
  /** What failed, with the output that shows it; empty when the block passed. */
  failures: string[];
  /** Lines left out, each with the mark's reason. */
  omitted: string[];
}

const tail = (text: string) => (text.length > 1500 ? `…${text.slice(-1500)}` : text);

/** The line with its placeholders replaced by the last match of each pattern in what ran before. */
function filled(line: string, block: Block, shell: Shell): string {
  let out = line;
  for (const { placeholder, pattern } of block.mark?.with ?? []) {
    if (!out.includes(placeholder)) continue;
    const seen = `${shell.transcript}\n${shell.serverOutput()}`;
    const matches = [...seen.matchAll(pattern)];
    const value = matches.at(-1)?.[1];
    if (value === undefined) throw new Error(`nothing printed before matches ${pattern} for ${placeholder}`);
    out = out.split(placeholder).join(value);
  }
  return out;
}

export async function runBlock(shell: Shell, block: Block, root: string): Promise<BlockOutcome> {
  const mark = block.mark;
  const outcome: BlockOutcome = { where: block.where, failures: [], omitted: [] };
  if (!mark || mark.state === 'skip') return outcome;
  for (const given of mark.given)
    cpSync(path.join(root, given.from), path.join(shell.cwd, given.path), { recursive: true });
  let printed = '';

  if (block.language === 'ts' || block.language === 'python') {
    const file = `readme-${block.where.replace(/\W+/g, '-')}.${block.language === 'ts' ? 'mts' : 'py'}`;
    writeFileSync(path.join(shell.cwd, file), block.code);
    // The python block's own first line says how it is run.
    const command =
      block.language === 'ts'
        ? `npx tsx ${file}`
        : `PYTHONPATH=generated/sdks/python/fuel .venv/bin/python ${file}`;
    const result = await shell.run(command);
    printed += result.output;
    if (result.status !== 0)
      outcome.failures.push(`${block.language} block exit ${result.status}:\n${tail(result.output)}`);
  } else {
    for (const raw of shellLines(block.code)) {
      const rule = (list: { part: string; text: string }[]) => list.find((r) => raw.includes(r.part));
      const omit = rule(mark.omits);
      if (omit) {
        outcome.omitted.push(`${raw.trim()} — ${omit.text}`);
        continue;
      }
      let line: string;
      try {
        line = filled(raw, block, shell);
      } catch (error) {
        outcome.failures.push(`${raw.trim()}: ${(error as Error).message}`);
        break;
      }
      const serves = rule(mark.serves);
      const keeps = rule(mark.keeps);
      if (serves || keeps) {
        try {
          const server = await shell.start(line, (serves ?? keeps)?.text as string);
          if (serves) {
            const stopped = await shell.stop(server);
            // A server stops on SIGTERM: exit 0, or the signal's own status where it leaves that to Node.
            if (stopped.status !== 0 && stopped.status !== 143)
              outcome.failures.push(
                `${raw.trim()}: exit ${stopped.status} on SIGTERM\n${tail(stopped.output)}`,
              );
          }
        } catch (error) {
          outcome.failures.push(`${raw.trim()}: ${(error as Error).message}`);
        }
        continue;
      }
      const result = await shell.run(line);
      printed += `${result.output}\n`;
      const fails = rule(mark.fails);
      if (fails) {
        if (result.status === 0 || !result.output.includes(fails.text))
          outcome.failures.push(
            `${raw.trim()}: expected to fail saying "${fails.text}", exit ${result.status}\n${tail(result.output)}`,
          );
      } else if (result.status !== 0) {
        outcome.failures.push(`${raw.trim()}: exit ${result.status}\n${tail(result.output)}`);
      }
      const left = placeholdersIn(line);
      if (left.length > 0)
        outcome.failures.push(`${raw.trim()}: placeholder ${left.join(', ')} left as written`);
    }
  }
  for (const text of mark.expect) {
    if (!printed.includes(text))
      outcome.failures.push(`the block's output does not hold "${text}":\n${tail(printed)}`);
  }
  return outcome;
}
