/**
 * WebP thumbnails (longest side 200 or 400 px) of pictures and of a video's first frame, made on first
 * request and kept beside the original (media-layout.ts). A cached thumbnail carries its original's
 * modification time, so a replaced original is noticed and the thumbnail made again. Concurrent first
 * requests for one thumbnail share one generation.
 */
import { spawn } from 'node:child_process';
import { mkdir, rename, stat, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { type ThumbnailSize, thumbnailPath } from '../model/media-layout';

const FFMPEG_TIMEOUT_MS = 30_000;
const MAX_FRAME_BYTES = 64 * 1024 * 1024;

/** The first frame of a video as PNG bytes, through ffmpeg (the file is an argument, never a shell word). */
export function firstVideoFrame(file: string, ffmpeg = 'ffmpeg'): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      ffmpeg,
      ['-v', 'error', '-nostdin', '-i', file, '-frames:v', '1', '-f', 'image2pipe', '-vcodec', 'png', '-'],
      { stdio: ['ignore', 'pipe', 'ignore'] },
    );
    const chunks: Buffer[] = [];
    let size = 0;
    const timer = setTimeout(() => child.kill('SIGKILL'), FFMPEG_TIMEOUT_MS);
    child.stdout.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_FRAME_BYTES) child.kill('SIGKILL');
      else chunks.push(chunk);
    });
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code === 0 && size > 0) resolve(Buffer.concat(chunks));
      else reject(new Error(`ffmpeg exited with ${code}`));
    });
  });
}

export interface ThumbnailRequest {
  /** Absolute path of the original. */
  source: string;
  size: ThumbnailSize;
  video: boolean;
}

export class Thumbnailer {
  /** How many thumbnails were actually made (the cache and the shared generations are not counted). */
  generations = 0;
  private readonly running = new Map<string, Promise<string>>();

  constructor(private readonly options: { ffmpeg?: string } = {}) {}

  /** The thumbnail's absolute path, made now when missing or older than the original. */
  get(req: ThumbnailRequest): Promise<string> {
    const target = thumbnailPath(req.source, req.size);
    let job = this.running.get(target);
    if (!job) {
      job = this.ensure(req, target).finally(() => this.running.delete(target));
      this.running.set(target, job);
    }
    return job;
  }

  /** Resolves once no thumbnail is being made (shutdown waits for this: no write outlives the viewer). */
  async settled(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running.values()]);
  }

  private async ensure(req: ThumbnailRequest, target: string): Promise<string> {
    const original = await stat(req.source);
    const cached = await stat(target).catch(() => null);
    // The copy carries its original's time to the millisecond (what utimes keeps of a Date).
    if (cached && Math.abs(cached.mtimeMs - original.mtimeMs) < 1) return target;
    return this.make(req, target, original.mtime);
  }

  private async make(req: ThumbnailRequest, target: string, originalTime: Date): Promise<string> {
    const input = req.video ? await firstVideoFrame(req.source, this.options.ffmpeg) : req.source;
    const webp = await sharp(input, { animated: false, limitInputPixels: 100_000_000 })
      .rotate()
      .resize(req.size, req.size, { fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 80 })
      .toBuffer();
    await mkdir(path.dirname(target), { recursive: true });
    const temp = `${target}.${process.pid}.${Date.now()}.tmp`;
    await writeFile(temp, webp);
    await utimes(temp, originalTime, originalTime);
    await rename(temp, target);
    this.generations += 1;
    return target;
  }
}
