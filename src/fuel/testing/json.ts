/** Answers in tests come in many shapes; assertions check them, so the type stays open. */
// biome-ignore lint/suspicious/noExplicitAny: see above
export type Json = any;

export const readJson = (res: Response): Promise<Json> => res.json() as Promise<Json>;

/** The Features of a store's runs of Feature texts (FeatureTexts), parsed. */
export const parseFeatureTexts = (texts: { runs: Iterable<string> }): Json[] =>
  JSON.parse(`[${[...texts.runs].join(',')}]`) as Json[];
