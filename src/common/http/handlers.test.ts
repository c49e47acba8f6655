/**
 * Type-level proof that a service's handler map is checked by the compiler: `tsc` (part of `npm test`)
 * fails unless each `@ts-expect-error` below marks a real error, so a map with a missing handler or a
 * handler of the wrong body cannot compile.
 */
import { describe, expectTypeOf, it } from 'vitest';
import type { operations } from '../../../generated/fuel/types';
import { fuelHandlers } from '../../fuel/http/app';
import type { Handlers, MountableHandlers, OperationHandler } from './operations';

type FuelHandlers = Handlers<operations>;

describe('Handlers<operations>', () => {
  it('types the real maps by their operations', () => {
    expectTypeOf(fuelHandlers).toExtend<FuelHandlers>();
    expectTypeOf<FuelHandlers>().toExtend<MountableHandlers>();
    expectTypeOf<FuelHandlers['getConfig']>().toEqualTypeOf<OperationHandler<operations['getConfig']>>();
  });

  it('refuses a map that lacks a handler', () => {
    const { getConfig: _dropped, ...rest } = fuelHandlers;
    // @ts-expect-error getConfig is missing
    const incomplete = { ...rest } satisfies FuelHandlers;
    expectTypeOf(incomplete).not.toHaveProperty('getConfig');
  });

  it('refuses a handler whose body belongs to another operation', () => {
    const wrongBody: OperationHandler<operations['getConfig']> = (_req, res) => {
      // @ts-expect-error the body of getConfig is the map configuration, not a list of stations
      res.json({ type: 'FeatureCollection', features: [] });
    };
    const mistyped = {
      ...fuelHandlers,
      // @ts-expect-error the handler of getStats answers the body of getConfig
      getStats: fuelHandlers.getConfig,
    } satisfies FuelHandlers;
    expectTypeOf(mistyped).toHaveProperty('getStats');
    expectTypeOf(wrongBody).toBeFunction();
  });
});
