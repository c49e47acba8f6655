/** [minLon, minLat, maxLon, maxLat] */
export type BBox = [number, number, number, number];
/** [lon, lat] */
export type LonLat = [number, number];
