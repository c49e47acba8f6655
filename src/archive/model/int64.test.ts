import { describe, expect, it } from 'vitest';
import { holdsLargeInteger, IntegerList, parseJson, stringifyJson } from './int64';

describe('64-bit ids in JSON', () => {
  it('reads like JSON.parse, with exact lists of large integers', () => {
    const text = '{"a":[1,2.5,"x\\"y",null,true,{"b":[]}],"__proto__":{"c":1},"n":-0.5e2}';
    expect(parseJson(text)).toEqual(JSON.parse(text));
    expect(Object.getPrototypeOf(parseJson('{"__proto__":{"c":1}}'))).toBe(Object.prototype);
    const ids = parseJson('{"ids": [ 1 , 9007199254740993, -9223372036854775808 ]}') as { ids: IntegerList };
    expect(ids.ids).toBeInstanceOf(IntegerList);
    expect(ids.ids.exactValues()).toEqual(['1', '9007199254740993', '-9223372036854775808']);
    expect(stringifyJson(ids)).toBe('{"ids":[1,9007199254740993,-9223372036854775808]}');
    expect(stringifyJson({ s: 'plain "text"', list: [1, 2] })).toBe('{"s":"plain \\"text\\"","list":[1,2]}');
  });

  it('reads a number no 64-bit integer holds as JSON does, in a list or not (the schema refuses it)', () => {
    for (const bad of ['5.5e21', '9223372036854775808', '-9223372036854775809', '1e19']) {
      expect(parseJson(`{"x":{"ids":[1,${bad}]},"y":${bad}}`), bad).toEqual({
        x: { ids: [1, Number(bad)] },
        y: Number(bad),
      });
    }
  });

  it('says when a parsed body needs the exact reading', () => {
    expect(holdsLargeInteger(JSON.parse('{"a":[1,2],"b":"9007199254740993"}'))).toBe(false);
    expect(holdsLargeInteger(JSON.parse('{"a":[1,9007199254740993]}'))).toBe(true);
    expect(holdsLargeInteger(JSON.parse('{"a":5.5e21}'))).toBe(true);
  });

  it('keeps the text a client cannot forge a placeholder with', () => {
    const sneaky = { s: '\u0000int64:0000000000000000:12' };
    expect(JSON.parse(stringifyJson(sneaky))).toEqual(sneaky);
  });
});
