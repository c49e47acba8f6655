/**
 * The steps of one job: audio out of the media file with ffmpeg, then text out of the audio with the
 * local `whisper-cli` engine or an OpenAI-compatible remote API.
 */

import { spawn } from 'node:child_process';
import { openAsBlob } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { withoutTrailingSlashes } from '../../common/text';
import { timeLimit } from '../../common/time-limit';

export interface ProcessResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  stderr: string;
}

/** Runs a command to its end, killed on abort or after `timeoutMs`; the last 4 KiB of stderr are kept. */
export function runProcess(
  command: string,
  args: string[],
  options: { signal: AbortSignal; timeoutMs: number },
): Promise<ProcessResult> {
  return new Promise((resolve, reject) => {
    let stderr = '';
    let timedOut = false;
    const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    const kill = () => child.kill('SIGKILL');
    const timer = setTimeout(() => {
      timedOut = true;
      kill();
    }, options.timeoutMs);
    options.signal.addEventListener('abort', kill, { once: true });
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-4096);
    });
    child.once('error', (error) => {
      clearTimeout(timer);
      options.signal.removeEventListener('abort', kill);
      reject(error);
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      options.signal.removeEventListener('abort', kill);
      resolve({ code, signal, timedOut, stderr });
    });
  });
}

const lastLine = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .at(-1)
    ?.slice(0, 300) ?? '';

function describeFailure(tool: string, result: ProcessResult, timeoutMs: number): string {
  if (result.timedOut) return `${tool} did not finish within ${Math.round(timeoutMs / 1000)} s`;
  if (result.code === null) return `${tool} was stopped by ${result.signal ?? 'a signal'}`;
  if (result.code === 132) {
    return `${tool} exited with code 132 (illegal instruction): this build needs AVX; install a -noavx variant`;
  }
  if (result.code === 127) {
    const library = /error while loading shared libraries:\s*(\S+?):/.exec(result.stderr)?.[1];
    if (library) return `${tool} exited with code 127: missing ${library}`;
  }
  const detail = lastLine(result.stderr);
  return `${tool} exited with code ${result.code}${detail ? `: ${detail}` : ''}`;
}

async function run(tool: string, command: string, args: string[], signal: AbortSignal, timeoutMs: number) {
  let result: ProcessResult;
  try {
    result = await runProcess(command, args, { signal, timeoutMs });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new Error(
      code === 'ENOENT' ? `${tool} not found (${command})` : `${tool} could not start: ${code}`,
    );
  }
  if (signal.aborted) throw signal.reason ?? new Error('stopped');
  if (result.code !== 0) throw new Error(describeFailure(tool, result, timeoutMs));
}

/** 16 kHz mono 16-bit WAV, the engine's portable input. */
export function extractAudio(
  ffmpeg: string,
  media: string,
  wav: string,
  signal: AbortSignal,
  timeoutMs: number,
): Promise<void> {
  const args = [
    '-nostdin',
    '-v',
    'error',
    '-y',
    '-i',
    media,
    '-vn',
    '-ac',
    '1',
    '-ar',
    '16000',
    '-c:a',
    'pcm_s16le',
    wav,
  ];
  return run('ffmpeg', ffmpeg, args, signal, timeoutMs);
}

export interface TranscribeInput {
  wav: string;
  language: string;
  /** Output path without extension: the engine appends `.srt`. */
  outPrefix: string;
  signal: AbortSignal;
  timeoutMs: number;
}

/** A way to turn a WAV file into SRT text. */
export type Transcriber = (input: TranscribeInput) => Promise<string>;

export interface LocalEngine {
  command: string;
  model: string;
}

export function localTranscriber(locate: () => Promise<Partial<LocalEngine>>): Transcriber {
  return async (input) => {
    const engine = await locate();
    if (!engine.command) {
      throw new Error('no whisper-cli binary found: install one, or set SUBTITLES_WHISPER_BINARY');
    }
    if (!engine.model) {
      throw new Error(
        'no whisper model found: put a ggml-*.bin file in the models folder, or set SUBTITLES_WHISPER_MODEL',
      );
    }
    const args = ['-m', engine.model, '-f', input.wav, '-l', input.language, '-osrt', '-of', input.outPrefix];
    await run('whisper-cli', engine.command, args, input.signal, input.timeoutMs);
    try {
      return await readFile(`${input.outPrefix}.srt`, 'utf8');
    } catch {
      throw new Error('whisper-cli wrote no subtitle file');
    }
  };
}

export interface RemoteSettings {
  url: string;
  apiKey: string | undefined;
  model: string;
}

/** `POST <url>/v1/audio/transcriptions` (multipart: file, model, language, response_format=srt). */
export function remoteEndpoint(url: string): string {
  return `${withoutTrailingSlashes(url).replace(/\/v1$/, '')}/v1/audio/transcriptions`;
}

export function remoteTranscriber(settings: RemoteSettings): Transcriber {
  const endpoint = remoteEndpoint(settings.url);
  return async (input) => {
    const form = new FormData();
    form.append('file', await openAsBlob(input.wav, { type: 'audio/wav' }), 'audio.wav');
    form.append('model', settings.model);
    form.append('language', input.language);
    form.append('response_format', 'srt');
    let res: Response;
    try {
      res = await fetch(endpoint, {
        method: 'POST',
        body: form,
        headers: settings.apiKey ? { Authorization: `Bearer ${settings.apiKey}` } : {},
        signal: timeLimit(input.timeoutMs, input.signal),
      });
    } catch (error) {
      if (input.signal.aborted) throw input.signal.reason ?? error;
      const reason = (error as Error).name === 'TimeoutError' ? 'timed out' : 'could not be reached';
      throw new Error(`the remote transcription API ${reason}`);
    }
    const text = await res.text();
    if (!res.ok) throw new Error(`the remote transcription API answered ${res.status}`);
    if (text.trim() !== '' && !text.includes('-->')) {
      throw new Error('the remote transcription API answered without SRT subtitles');
    }
    return text;
  };
}
