/**
 * Type-level tests of `Handlers<operations>` (checked by `npm run typecheck`, nothing runs): each
 * `@ts-expect-error` below must meet an error, so a handler map that misses an operation, puts one
 * operation's handler in another's place, or answers an undocumented body fails the compiler.
 */
import type { operations } from '../../../generated/fuel/types';
import type { Handlers, OperationHandler } from '../../common/http/operations';
import { fuelHandlers } from './app';

const { getConfig: _left, ...withoutGetConfig } = fuelHandlers;

// @ts-expect-error a map without the handler of `getConfig`
export const missing = withoutGetConfig satisfies Handlers<operations>;

export const swapped = {
  ...fuelHandlers,
  // @ts-expect-error the handler of another operation, whose parameters and answers differ
  getStationPriceHistory: fuelHandlers.getConfig,
} satisfies Handlers<operations>;

export const undocumented = {
  ...fuelHandlers,
  // @ts-expect-error a handler for no operation of the document
  listPetrolStations: fuelHandlers.listStations,
} satisfies Handlers<operations>;

export const wrongBody: OperationHandler<operations['getStats']> = (_req, res) => {
  // @ts-expect-error a body the document does not describe for this operation
  res.json({ stations: 'many' });
};

export const wrongParameter: OperationHandler<operations['listNearestStations']> = (req, res) => {
  // @ts-expect-error a query parameter the operation does not have
  res.json(req.query.nearby);
};

// The map itself is one.
export const complete = fuelHandlers satisfies Handlers<operations>;
