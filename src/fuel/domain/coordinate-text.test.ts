import { describe, expect, it } from 'vitest';
import { coordinatesOf } from './coordinate-text';

const near = (got: [number, number] | null, lon: number, lat: number) => {
  expect(got).not.toBeNull();
  const [x, y] = got as [number, number];
  expect(Math.abs(x - lon)).toBeLessThan(1e-4);
  expect(Math.abs(y - lat)).toBeLessThan(1e-4);
};

describe('coordinatesOf', () => {
  it.each([
    ['40.4168, -3.7038'],
    ['40.4168,-3.7038'],
    [' 40.4168 -3.7038 '],
    ['40.4168;-3.7038'],
    ['+40.4168, -3.7038'],
    ['40.4168N 3.7038W'],
    ['40.4168 N, 3.7038 W'],
    ['N40.4168 W3.7038'],
    ['N 40.4168, W 3.7038'],
    ['3.7038W 40.4168N'],
    ['40.4168n 3.7038w'],
    [`40°25'00.5"N 3°42'13.7"W`],
    ['40°25′00.5″N 3°42′13.7″W'],
    [`40º 25' 0.5'' N, 3º 42' 13.7'' W`],
    [`40°25'00.5" -3°42'13.7"`],
    ['40 25.0083, -3 42.2283'],
    [`40°25.0083'N 3°42.2283'W`],
    ['40 25 0.5, -3 42 13.7'],
  ])('reads %s as Madrid', (text) => {
    near(coordinatesOf(text), -3.7038, 40.4168);
  });

  it('reads a bare pair of small numbers as a point (latitude, longitude), not as a search', () => {
    expect(coordinatesOf('28, 3')).toEqual([3, 28]);
    expect(coordinatesOf('-34.6 -58.38')).toEqual([-58.38, -34.6]);
  });

  it.each([
    ['a place name', 'Madrid'],
    ['a street and number', 'Calle Mayor 5'],
    ['one number', '40.4168'],
    ['three bare numbers', '40 25 3'],
    ['four bare numbers with no comma', '40 25.0 -3 42.2'],
    ['two commas', '40, -3, 5'],
    ['latitude out of range', '95.1, 10'],
    ['longitude out of range', '40, 181'],
    ['minutes of 60', '40 60, -3 0'],
    ['decimals before the last part', '40.5 25, -3 42'],
    ['a negative minute', '40 -25, -3 42'],
    ['a sign and a hemisphere', '-40.4N 3.7W'],
    ['two latitudes', '40N 3S'],
    ['marks out of order', `40'25° N, 3°42' W`],
    ['a word starting like a hemisphere', 'West 40, 3'],
    ['a number too long', `40.${'1'.repeat(40)}, 3`],
    ['blanks between a number and a letter', `1${' '.repeat(15_000)}x`],
    ['an empty text', ''],
  ])('refuses %s', (_name, text) => {
    expect(coordinatesOf(text)).toBeNull();
  });
});
