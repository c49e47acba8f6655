import path from 'node:path';
import type { components } from '../../../generated/subtitles/types';
import type { Variant } from '../config';
import { detectGpu } from './gpu';
import type { Probe } from './probe';

export type SetupStatus = components['schemas']['SetupStatus'];
export type Platform = SetupStatus['Platform'];

export const ENGINE = 'whisper-cli';
export const PATH_NAMES = ['whisper-cli', 'whisper'];
export const PATH_TIMEOUT_MS = 5000;

export interface EngineSettings {
  dataDir: string;
  binary: string | undefined;
  model: string | undefined;
  variant: Variant | '';
}

export const whisperDir = (dataDir: string) => path.join(dataDir, 'whisper');
export const modelsDir = (dataDir: string) => path.join(dataDir, 'whisper', 'models');

export function autoBinaryPath(dataDir: string, platform: NodeJS.Platform): string {
  return path.join(whisperDir(dataDir), platform === 'win32' ? `${ENGINE}.exe` : ENGINE);
}

export function platformOf(probe: Pick<Probe, 'platform' | 'arch'>): Platform {
  if (probe.platform === 'win32') return probe.arch === 'x64' ? 'win-x64' : 'win-x86';
  if (probe.platform === 'darwin') return probe.arch === 'arm64' ? 'osx-arm64' : 'osx-x64';
  return probe.arch === 'arm64' ? 'linux-arm64' : 'linux-x64';
}

/** The first of `whisper-cli`, `whisper` whose `--help` exits 0 within the time limit. */
export async function engineOnPath(probe: Probe): Promise<string | undefined> {
  for (const name of PATH_NAMES) {
    if ((await probe.run(name, ['--help'], PATH_TIMEOUT_MS)).code === 0) return name;
  }
  return undefined;
}

export interface EngineLocation {
  /** What to run: a file path, or a command name found on PATH. */
  command: string | undefined;
  binaryFound: boolean;
  binaryFoundInPath: boolean;
  binaryPath: string | undefined;
  modelPath: string | undefined;
}

/** The largest `.bin` file of the models folder. */
function largestModel(probe: Probe, dir: string): string | undefined {
  const models = probe
    .files(dir)
    .filter((file) => file.name.toLowerCase().endsWith('.bin'))
    .sort((a, b) => b.size - a.size || a.name.localeCompare(b.name));
  return models[0] && path.join(dir, models[0].name);
}

/** Binary: configured path, else auto-downloaded copy, else PATH. Model: configured path, else the largest `.bin`. */
export async function locateEngine(probe: Probe, settings: EngineSettings): Promise<EngineLocation> {
  const configured = settings.binary && probe.isFile(settings.binary) ? settings.binary : undefined;
  const autoPath = autoBinaryPath(settings.dataDir, probe.platform);
  const auto = probe.isFile(autoPath) ? autoPath : undefined;
  const onPath = configured || auto ? undefined : await engineOnPath(probe);
  const model =
    settings.model && probe.isFile(settings.model)
      ? settings.model
      : largestModel(probe, modelsDir(settings.dataDir));
  const file = configured ?? auto;
  return {
    command: file ?? onPath,
    binaryFound: Boolean(file ?? onPath),
    binaryFoundInPath: Boolean(onPath),
    binaryPath: file ?? (onPath ? `${ENGINE} (PATH)` : undefined),
    modelPath: model,
  };
}

export async function setupStatus(probe: Probe, settings: EngineSettings): Promise<SetupStatus> {
  const [engine, gpu] = await Promise.all([locateEngine(probe, settings), detectGpu(probe)]);
  // BinaryPath and ModelPath are left out rather than null: the media server drops null fields.
  return {
    SetupComplete: engine.binaryFound && engine.modelPath !== undefined,
    BinaryFound: engine.binaryFound,
    BinaryFoundInPath: engine.binaryFoundInPath,
    ...(engine.binaryPath ? { BinaryPath: engine.binaryPath } : {}),
    ModelFound: engine.modelPath !== undefined,
    ...(engine.modelPath ? { ModelPath: engine.modelPath } : {}),
    Platform: platformOf(probe),
    InstalledVariant: settings.variant,
    Gpu: gpu,
  };
}
