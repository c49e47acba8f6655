/**
 * Type-level tests of the request context (checked by `npm run typecheck`, never run): a read through a key
 * has the type its writer declared, and a value of another type cannot be written under it.
 */
import type { IncomingMessage } from 'node:http';
import { contextKey, readContext, writeContext } from './context';

declare const req: IncomingMessage;
const COUNT = contextKey<number>('a count');
const NAME = contextKey<string>('a name');

const count: number | undefined = readContext(req, COUNT);
writeContext(req, COUNT, 3);
writeContext(req, NAME, 'three');

// @ts-expect-error A number's key reads no string.
const wrong: string | undefined = readContext(req, COUNT);

// @ts-expect-error A string is no value for a number's key.
writeContext(req, COUNT, 'three');

// @ts-expect-error One key's type is not another's.
const swapped: typeof COUNT = NAME;

export { count, swapped, wrong };
