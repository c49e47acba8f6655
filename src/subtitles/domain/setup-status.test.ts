import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Variant } from '../config';
import { detectGpu, parseLdconfig, recommendVariant } from './gpu';
import { hostProbe, type Probe, runBounded, type ToolResult } from './probe';
import { platformOf, setupStatus } from './setup-status';

// A fake machine: files under a temporary root, and canned tool results keyed by "command args".
let root: string;
const DATA = '/var/lib/media/data/Subtitles';

function touch(file: string, size = 16): void {
  const at = path.join(root, file);
  mkdirSync(path.dirname(at), { recursive: true });
  writeFileSync(at, Buffer.alloc(size));
}

function machine(
  tools: Record<string, Partial<ToolResult>> = {},
  options: { platform?: NodeJS.Platform; arch?: string } = {},
): Probe & { calls: string[] } {
  const calls: string[] = [];
  const probe = hostProbe({
    root,
    platform: options.platform ?? 'linux',
    arch: options.arch ?? 'x64',
    run: async (command, args, timeoutMs) => {
      const key = [command, ...args].join(' ');
      calls.push(`${key} (${timeoutMs} ms)`);
      const result = tools[key];
      return result ? { code: result.code ?? 0, stdout: result.stdout ?? '' } : { code: null, stdout: '' };
    },
  });
  return Object.assign(probe, { calls });
}

const ldconfig = (...libraries: string[]) => ({
  'ldconfig -p': {
    code: 0,
    stdout: `${libraries.length} libs found in cache \`/etc/ld.so.cache'\n${libraries
      .map((lib) => `\t${lib} (libc6,x86-64) => /usr/lib/x86_64-linux-gnu/${lib}`)
      .join('\n')}\n`,
  },
});

const AVX2 = 'processor\t: 0\nflags\t\t: fpu vme sse sse2 avx avx2 fma\n';
const NO_AVX = 'processor\t: 0\nflags\t\t: fpu vme sse sse2 sse4_2\n';

beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'subtitles-probe-'));
  touch('/proc/cpuinfo');
  writeFileSync(path.join(root, '/proc/cpuinfo'), AVX2);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const settings = (overrides: Partial<{ binary: string; model: string; variant: Variant | '' }> = {}) => ({
  dataDir: DATA,
  binary: undefined,
  model: undefined,
  variant: '' as const,
  ...overrides,
});

describe('Setup/Status: binary', () => {
  it('reads the never-installed state: SetupComplete, BinaryFound and ModelFound all false, paths left out', async () => {
    const status = await setupStatus(machine(), settings());
    expect(status).toMatchObject({
      SetupComplete: false,
      BinaryFound: false,
      ModelFound: false,
      BinaryFoundInPath: false,
    });
    expect(status).not.toHaveProperty('BinaryPath');
    expect(status).not.toHaveProperty('ModelPath');
    expect(JSON.stringify(status)).not.toContain('null');
  });

  it('finds the auto-downloaded copy in <data>/whisper/whisper-cli', async () => {
    touch(`${DATA}/whisper/whisper-cli`);
    const status = await setupStatus(machine(), settings());
    expect(status).toMatchObject({
      BinaryFound: true,
      BinaryFoundInPath: false,
      BinaryPath: `${DATA}/whisper/whisper-cli`,
    });
  });

  it('uses whisper-cli.exe as the auto-downloaded copy on Windows', async () => {
    touch(`${DATA}/whisper/whisper-cli.exe`);
    const status = await setupStatus(machine({}, { platform: 'win32', arch: 'x64' }), settings());
    expect(status.BinaryPath).toBe(path.join(DATA, 'whisper', 'whisper-cli.exe'));
  });

  it('prefers a configured path that exists over the auto-downloaded copy', async () => {
    touch(`${DATA}/whisper/whisper-cli`);
    touch('/opt/whisper/bin/whisper-cli');
    const status = await setupStatus(machine(), settings({ binary: '/opt/whisper/bin/whisper-cli' }));
    expect(status).toMatchObject({ BinaryFound: true, BinaryPath: '/opt/whisper/bin/whisper-cli' });
  });

  it('ignores a configured path whose file is missing', async () => {
    const status = await setupStatus(machine(), settings({ binary: '/opt/missing/whisper-cli' }));
    expect(status.BinaryFound).toBe(false);
    expect(status).not.toHaveProperty('BinaryPath');
  });

  it('finds whisper-cli on PATH when its --help exits 0: BinaryFoundInPath and the literal path', async () => {
    const probe = machine({ 'whisper-cli --help': { code: 0 } });
    const status = await setupStatus(probe, settings());
    expect(status).toMatchObject({
      BinaryFound: true,
      BinaryFoundInPath: true,
      BinaryPath: 'whisper-cli (PATH)',
    });
    expect(probe.calls).toContain('whisper-cli --help (5000 ms)');
  });

  it('tries whisper --help after whisper-cli, and never the generic main', async () => {
    const probe = machine({ 'whisper-cli --help': { code: 1 }, 'whisper --help': { code: 0 } });
    const status = await setupStatus(probe, settings());
    expect(status).toMatchObject({
      BinaryFound: true,
      BinaryFoundInPath: true,
      BinaryPath: 'whisper-cli (PATH)',
    });
    expect(probe.calls.some((call) => call.startsWith('main'))).toBe(false);
  });

  it('does not count a tool on PATH that exits non-zero or does not answer in time', async () => {
    const status = await setupStatus(machine({ 'whisper-cli --help': { code: 1 } }), settings());
    expect(status.BinaryFound).toBe(false);
  });

  it('keeps BinaryFoundInPath false when an auto-downloaded or configured copy exists', async () => {
    touch(`${DATA}/whisper/whisper-cli`);
    const status = await setupStatus(machine({ 'whisper-cli --help': { code: 0 } }), settings());
    expect(status).toMatchObject({ BinaryFound: true, BinaryFoundInPath: false });
  });
});

describe('Setup/Status: model and completeness', () => {
  it('takes the largest .bin of <data>/whisper/models', async () => {
    touch(`${DATA}/whisper/models/ggml-tiny.bin`, 10);
    touch(`${DATA}/whisper/models/ggml-base.bin`, 30);
    touch(`${DATA}/whisper/models/notes.txt`, 100);
    const status = await setupStatus(machine(), settings());
    expect(status).toMatchObject({ ModelFound: true, ModelPath: `${DATA}/whisper/models/ggml-base.bin` });
  });

  it('prefers a configured model path that exists', async () => {
    touch(`${DATA}/whisper/models/ggml-base.bin`, 30);
    touch('/models/ggml-small.bin', 5);
    const status = await setupStatus(machine(), settings({ model: '/models/ggml-small.bin' }));
    expect(status.ModelPath).toBe('/models/ggml-small.bin');
  });

  it('falls back to the models folder when the configured model is missing', async () => {
    touch(`${DATA}/whisper/models/ggml-base.bin`, 30);
    const status = await setupStatus(machine(), settings({ model: '/models/gone.bin' }));
    expect(status.ModelPath).toBe(`${DATA}/whisper/models/ggml-base.bin`);
  });

  it('is SetupComplete only with both a binary and a model', async () => {
    touch(`${DATA}/whisper/models/ggml-base.bin`);
    expect((await setupStatus(machine(), settings())).SetupComplete).toBe(false);
    touch(`${DATA}/whisper/whisper-cli`);
    expect((await setupStatus(machine(), settings())).SetupComplete).toBe(true);
  });

  it('reports the configured variant, and "" until one is installed', async () => {
    expect((await setupStatus(machine(), settings())).InstalledVariant).toBe('');
    expect((await setupStatus(machine(), settings({ variant: 'vulkan-noavx' }))).InstalledVariant).toBe(
      'vulkan-noavx',
    );
  });

  it.each([
    ['linux', 'x64', 'linux-x64'],
    ['linux', 'arm64', 'linux-arm64'],
    ['freebsd', 'x64', 'linux-x64'],
    ['darwin', 'arm64', 'osx-arm64'],
    ['darwin', 'x64', 'osx-x64'],
    ['win32', 'x64', 'win-x64'],
    ['win32', 'ia32', 'win-x86'],
    ['win32', 'arm64', 'win-x86'],
  ] as const)('reports Platform for %s/%s as %s', (platform, arch, expected) => {
    expect(platformOf({ platform, arch })).toBe(expected);
  });
});

describe('Gpu detection', () => {
  it.each(['/dev/nvidia0', '/dev/nvidiactl'])('HasVendorAGpu from the device node %s', async (node) => {
    touch(node);
    expect((await detectGpu(machine())).HasVendorAGpu).toBe(true);
  });

  it('HasVendorAGpu from nvidia-smi exiting 0, not from a failing one', async () => {
    expect((await detectGpu(machine({ 'nvidia-smi': { code: 0 } }))).HasVendorAGpu).toBe(true);
    expect((await detectGpu(machine({ 'nvidia-smi': { code: 9 } }))).HasVendorAGpu).toBe(false);
    expect((await detectGpu(machine())).HasVendorAGpu).toBe(false);
  });

  it('HasVendorBGpu from /dev/kfd or rocm-smi exiting 0', async () => {
    expect((await detectGpu(machine({ 'rocm-smi': { code: 0 } }))).HasVendorBGpu).toBe(true);
    expect((await detectGpu(machine())).HasVendorBGpu).toBe(false);
    touch('/dev/kfd');
    expect((await detectGpu(machine())).HasVendorBGpu).toBe(true);
  });

  it('HasRenderDevice from /dev/dri/renderD128 only', async () => {
    touch('/dev/dri/renderD129');
    expect((await detectGpu(machine())).HasRenderDevice).toBe(false);
    touch('/dev/dri/renderD128');
    expect((await detectGpu(machine())).HasRenderDevice).toBe(true);
  });

  it.each([
    ['HasCudaLibrary', 'libcuda.so.1'],
    ['HasCudaLibrary', 'libcudart.so.12'],
    ['HasRocmLibrary', 'libamdhip64.so.6'],
    ['HasVulkanLibrary', 'libvulkan.so.1'],
    ['HasOpenMP', 'libgomp.so.1'],
  ] as const)('%s from %s in the linker cache (ldconfig -p)', async (flag, library) => {
    expect((await detectGpu(machine()))[flag]).toBe(false);
    expect((await detectGpu(machine(ldconfig(library))))[flag]).toBe(true);
  });

  it.each([
    ['HasCudaLibrary', '/usr/local/cuda/lib64/libcudart.so'],
    ['HasCudaLibrary', '/usr/lib64/libcuda.so.1'],
    ['HasRocmLibrary', '/opt/rocm/lib/libamdhip64.so'],
    ['HasVulkanLibrary', '/lib/aarch64-linux-gnu/libvulkan.so.1'],
    ['HasOpenMP', '/usr/lib/x86_64-linux-gnu/libgomp.so.1'],
  ] as const)('%s from %s in a usual library folder', async (flag, file) => {
    touch(file);
    expect((await detectGpu(machine()))[flag]).toBe(true);
  });

  it('does not take a similar library for the one asked (libcudart.so is not libcuda.so.1 … nor libcudartx)', async () => {
    const gpu = await detectGpu(machine(ldconfig('libcudartx.so.1', 'libvulkan.so.10', 'libgomp.so')));
    expect(gpu).toMatchObject({ HasCudaLibrary: false, HasOpenMP: false });
  });

  it('reads the linker cache format', () => {
    expect(
      parseLdconfig(
        '2 libs found\n\tlibvulkan.so.1 (libc6,x86-64) => /lib/libvulkan.so.1\n\tlibm.so.6 (libc6) => /lib/libm.so.6\n',
      ),
    ).toEqual(['libvulkan.so.1', 'libm.so.6']);
  });

  it('runs every tool with a time limit of a few seconds', async () => {
    const probe = machine();
    await detectGpu(probe);
    expect(probe.calls).toEqual(
      expect.arrayContaining(['nvidia-smi (3000 ms)', 'rocm-smi (3000 ms)', 'ldconfig -p (3000 ms)']),
    );
  });

  it('HasAvx from the avx2 flag of /proc/cpuinfo', async () => {
    expect((await detectGpu(machine())).HasAvx).toBe(true);
    writeFileSync(path.join(root, '/proc/cpuinfo'), NO_AVX);
    expect((await detectGpu(machine())).HasAvx).toBe(false);
    writeFileSync(path.join(root, '/proc/cpuinfo'), 'flags\t: fpu avx sse4_2\n');
    expect((await detectGpu(machine())).HasAvx).toBe(false);
  });

  it('HasAvx is always true on arm64', async () => {
    writeFileSync(path.join(root, '/proc/cpuinfo'), 'Features\t: fp asimd\n');
    expect((await detectGpu(machine({}, { arch: 'arm64' }))).HasAvx).toBe(true);
  });
});

describe('RecommendedVariant', () => {
  const none = {
    HasVendorAGpu: false,
    HasCudaLibrary: false,
    HasVendorBGpu: false,
    HasRocmLibrary: false,
    HasRenderDevice: false,
    HasVulkanLibrary: false,
    HasOpenMP: true,
    HasAvx: true,
  };

  it.each([
    ['no GPU', {}, 'cpu'],
    ['no GPU, no AVX', { HasAvx: false }, 'noavx'],
    ['first vendor device and CUDA library', { HasVendorAGpu: true, HasCudaLibrary: true }, 'cuda12'],
    ['the same without AVX', { HasVendorAGpu: true, HasCudaLibrary: true, HasAvx: false }, 'cuda12-noavx'],
    ['first vendor device without its library (passed-through GPU)', { HasVendorAGpu: true }, 'cpu'],
    ['CUDA library without a device', { HasCudaLibrary: true }, 'cpu'],
    ['/dev/kfd and the ROCm library', { HasVendorBGpu: true, HasRocmLibrary: true }, 'rocm'],
    ['ROCm device without its library', { HasVendorBGpu: true }, 'cpu'],
    [
      'ROCm without AVX (no ROCm noavx build)',
      { HasVendorBGpu: true, HasRocmLibrary: true, HasAvx: false },
      'noavx',
    ],
    ['render device and Vulkan library', { HasRenderDevice: true, HasVulkanLibrary: true }, 'vulkan'],
    [
      'the same without AVX',
      { HasRenderDevice: true, HasVulkanLibrary: true, HasAvx: false },
      'vulkan-noavx',
    ],
    ['render device without the Vulkan library', { HasRenderDevice: true }, 'cpu'],
    [
      'CUDA and Vulkan both complete: CUDA first',
      { HasVendorAGpu: true, HasCudaLibrary: true, HasRenderDevice: true, HasVulkanLibrary: true },
      'cuda12',
    ],
    [
      'ROCm and Vulkan both complete: ROCm first',
      { HasVendorBGpu: true, HasRocmLibrary: true, HasRenderDevice: true, HasVulkanLibrary: true },
      'rocm',
    ],
    ['OpenMP missing does not change the choice', { HasOpenMP: false }, 'cpu'],
  ] as const)('%s → %s', (_name, flags, expected) => {
    expect(recommendVariant({ ...none, ...flags })).toBe(expected);
  });

  it('a container with a passed-through device node but no runtime libraries is recommended cpu', async () => {
    touch('/dev/nvidia0');
    touch('/dev/dri/renderD128');
    const gpu = await detectGpu(machine());
    expect(gpu).toMatchObject({ HasVendorAGpu: true, HasCudaLibrary: false, RecommendedVariant: 'cpu' });
  });

  it('a full CUDA machine is recommended cuda12', async () => {
    touch('/dev/nvidia0');
    const gpu = await detectGpu(machine(ldconfig('libcuda.so.1')));
    expect(gpu.RecommendedVariant).toBe('cuda12');
  });
});

describe('bounded tool runs', () => {
  it('kills a tool that does not finish in time and reports no exit code', async () => {
    expect(await runBounded('sleep', ['30'], 200)).toEqual({ code: null, stdout: '' });
  });

  it('reports a tool that cannot start as no exit code', async () => {
    expect((await runBounded('/nonexistent/whisper-cli', ['--help'], 1000)).code).toBeNull();
  });

  it('keeps the exit code and the output', async () => {
    expect(await runBounded('sh', ['-c', 'echo hello; exit 3'], 5000)).toEqual({
      code: 3,
      stdout: 'hello\n',
    });
  });
});
