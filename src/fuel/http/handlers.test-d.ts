/**
 * Type-level tests of `Handlers<operations>` (checked by `npm run typecheck`, nothing runs): each
 * `@ts-expect-error` below must meet an error, so a handler map that misses an operation, puts one
 * operation's handler in another's place, or answers an undocumented body fails the compiler.
 */
import type { operations } from '../../../generated/fuel/types';
import type { Handlers, MountableHandlers, OperationHandler } from '../../common/http/operations';
import type { fuelHandlers } from './app';

/** The map the app mounts (made from its wiring by `fuelHandlers(wiring)`). */
declare const made: ReturnType<typeof fuelHandlers>;

const { getConfig: _left, ...withoutGetConfig } = made;

// @ts-expect-error a map without the handler of `getConfig`
export const missing = withoutGetConfig satisfies Handlers<operations>;

export const swapped = {
  ...made,
  // @ts-expect-error the handler of another operation, whose parameters and answers differ
  getStationPriceHistory: made.getConfig,
} satisfies Handlers<operations>;

export const undocumented = {
  ...made,
  // @ts-expect-error a handler for no operation of the document
  listPetrolStations: made.listStations,
} satisfies Handlers<operations>;

export const wrongBody: OperationHandler<operations['getStats']> = (_req, res) => {
  // @ts-expect-error a body the document does not describe for this operation
  res.json({ stations: 'many' });
};

export const wrongParameter: OperationHandler<operations['listNearestStations']> = (req, res) => {
  // @ts-expect-error a query parameter the operation does not have
  res.json(req.query.nearby);
};

// The map itself is one, and the app can mount it.
export const complete = made satisfies Handlers<operations>;
export const mountable = made satisfies MountableHandlers;
