/**
 * A page's `favicon.ico`, made by the page's build from `web/shared/icons/<service>.svg`: the icon drawn
 * at 16, 32 and 48 pixels (sharp), each kept as a PNG inside the ICO container (an ICONDIR header, one
 * 16-byte ICONDIRENTRY an image, then the images), which every current browser reads.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';

const ICONS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web/shared/icons');
const SIZES = [16, 32, 48] as const;

export type IconService = 'archive' | 'fuel' | 'subtitles';

export async function faviconIco(service: IconService): Promise<Buffer> {
  const svg = readFileSync(path.join(ICONS, `${service}.svg`));
  const images = await Promise.all(
    SIZES.map((size) =>
      sharp(svg, { density: 72 * (size / 64) * 4 })
        .resize(size, size)
        .png()
        .toBuffer(),
    ),
  );
  const header = Buffer.alloc(6);
  header.writeUInt16LE(0, 0); // reserved
  header.writeUInt16LE(1, 2); // 1: an icon (2 would be a cursor)
  header.writeUInt16LE(images.length, 4);
  const entries = Buffer.alloc(16 * images.length);
  let offset = header.length + entries.length;
  images.forEach((image, i) => {
    const size = SIZES[i] as number;
    const at = 16 * i;
    entries.writeUInt8(size, at); // width (0 would mean 256)
    entries.writeUInt8(size, at + 1); // height
    entries.writeUInt8(0, at + 2); // no palette
    entries.writeUInt8(0, at + 3); // reserved
    entries.writeUInt16LE(1, at + 4); // colour planes
    entries.writeUInt16LE(32, at + 6); // bits per pixel
    entries.writeUInt32LE(image.length, at + 8);
    entries.writeUInt32LE(offset, at + 12);
    offset += image.length;
  });
  return Buffer.concat([header, entries, ...images]);
}
