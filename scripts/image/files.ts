/**
 * The container files read as data, for the tests that hold them against the project: the Dockerfile's
 * stages (through dockerfile-ast) and compose.yaml.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { DockerfileParser, type Instruction } from 'dockerfile-ast';
import { parse } from 'yaml';
import { ROOT } from '../../src/common/services';

export interface Stage {
  from: string;
  name?: string;
  instructions: { keyword: string; args: string; instruction: Instruction }[];
}

export function readDockerfile(file = path.join(ROOT, 'Dockerfile')): Stage[] {
  const dockerfile = DockerfileParser.parse(readFileSync(file, 'utf8'));
  const stages: Stage[] = [];
  for (const instruction of dockerfile.getInstructions()) {
    const keyword = instruction.getKeyword();
    const args = (instruction.getArgumentsContent() ?? '').replace(/\\\n/g, ' ').replace(/\s+/g, ' ').trim();
    if (keyword === 'FROM') {
      const [from = '', as, name] = args.split(' ');
      stages.push({ from, ...(as?.toUpperCase() === 'AS' && name ? { name } : {}), instructions: [] });
    } else {
      stages.at(-1)?.instructions.push({ keyword, args, instruction });
    }
  }
  return stages;
}

/** The exec-form (JSON array) argument of an instruction such as ENTRYPOINT, CMD or HEALTHCHECK CMD. */
export function execForm(args: string): string[] {
  const json = args.slice(args.indexOf('['));
  const value: unknown = JSON.parse(json);
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) {
    throw new Error(`not an exec form: ${args}`);
  }
  return value;
}

/** `KEY=value KEY2=value` pairs of an ENV instruction. */
export function envPairs(args: string): Record<string, string> {
  return Object.fromEntries(
    args
      .split(' ')
      .filter(Boolean)
      .map((pair) => {
        const at = pair.indexOf('=');
        return [pair.slice(0, at), pair.slice(at + 1)];
      }),
  );
}

export interface ComposeService {
  image?: string;
  build?: string;
  command?: string[];
  ports?: string[];
  environment?: Record<string, string>;
  env_file?: string[];
  volumes?: string[];
  read_only?: boolean;
  healthcheck?: {
    test: string[];
    interval?: string;
    start_period?: string;
    retries?: number;
    timeout?: string;
  };
  depends_on?: Record<string, { condition: string }>;
}

export function readCompose(file = path.join(ROOT, 'compose.yaml')): {
  services: Record<string, ComposeService>;
  volumes?: Record<string, unknown>;
} {
  return parse(readFileSync(file, 'utf8'), { merge: true });
}

/** Compose services that run this project's image. */
export function ownServices(compose = readCompose()): [string, ComposeService][] {
  return Object.entries(compose.services).filter(([, service]) => service.image?.startsWith('specyard'));
}
