import type { components } from '../../../generated/subtitles/types';
import type { Variant } from '../config';
import type { Probe } from './probe';

export type Gpu = components['schemas']['Gpu'];

export const TOOL_TIMEOUT_MS = 3000;

/** The dynamic linker's usual folders; `ldconfig -p` covers the rest of its cache. */
export const LIBRARY_DIRS = [
  '/lib/x86_64-linux-gnu',
  '/usr/lib/x86_64-linux-gnu',
  '/lib/aarch64-linux-gnu',
  '/usr/lib/aarch64-linux-gnu',
  '/lib64',
  '/usr/lib64',
  '/lib',
  '/usr/lib',
  '/usr/local/lib',
  '/usr/local/cuda/lib64',
  '/opt/rocm/lib',
  '/usr/lib/wsl/lib',
];

export const LIBRARIES = {
  cuda: ['libcuda.so.1', 'libcudart.so'],
  rocm: ['libamdhip64.so'],
  vulkan: ['libvulkan.so.1'],
  openmp: ['libgomp.so.1'],
} as const;

/** `libcudart.so` is found as itself or as a versioned file of it (`libcudart.so.12`). */
const provides = (file: string, library: string) => file === library || file.startsWith(`${library}.`);

/** Library file names in the linker cache: the first word of each `ldconfig -p` entry line. */
export function parseLdconfig(output: string): string[] {
  return output
    .split('\n')
    .filter((line) => line.includes('=>'))
    .map((line) => line.trim().split(/\s+/)[0] ?? '')
    .filter(Boolean);
}

async function linkerCache(probe: Probe): Promise<string[]> {
  for (const command of ['ldconfig', '/sbin/ldconfig']) {
    const result = await probe.run(command, ['-p'], TOOL_TIMEOUT_MS);
    if (result.code === 0) return parseLdconfig(result.stdout);
  }
  return [];
}

async function toolRuns(probe: Probe, command: string): Promise<boolean> {
  return (await probe.run(command, [], TOOL_TIMEOUT_MS)).code === 0;
}

/**
 * True when the CPU has AVX2, which the prebuilt non-`noavx` binaries are built for. Always true on
 * arm64 and outside Linux; true when /proc/cpuinfo cannot be read (a wrong "no" would pick a slow build
 * on every machine whose kernel hides it).
 */
export function cpuHasAvx(probe: Probe): boolean {
  if (probe.arch === 'arm64' || probe.platform !== 'linux') return true;
  const cpuinfo = probe.readText('/proc/cpuinfo');
  if (cpuinfo === undefined) return true;
  return cpuinfo
    .split('\n')
    .filter((line) => /^flags\b/i.test(line))
    .some((line) => (line.split(':')[1] ?? '').split(/[ \t]+/).includes('avx2'));
}

type Flags = Omit<Gpu, 'RecommendedVariant'>;

/**
 * A GPU build only when its device AND its library are there; CUDA first, then ROCm, then Vulkan. The
 * ROCm build needs AVX (there is no ROCm `noavx` build), so without AVX the choice moves on.
 */
export function recommendVariant(flags: Flags): Variant {
  const avx = flags.HasAvx;
  if (flags.HasVendorAGpu && flags.HasCudaLibrary) return avx ? 'cuda12' : 'cuda12-noavx';
  if (flags.HasVendorBGpu && flags.HasRocmLibrary && avx) return 'rocm';
  if (flags.HasRenderDevice && flags.HasVulkanLibrary) return avx ? 'vulkan' : 'vulkan-noavx';
  return avx ? 'cpu' : 'noavx';
}

export async function detectGpu(probe: Probe): Promise<Gpu> {
  const nvidiaNode = probe.exists('/dev/nvidia0') || probe.exists('/dev/nvidiactl');
  const amdNode = probe.exists('/dev/kfd');
  const [cache, nvidiaTool, rocmTool] = await Promise.all([
    linkerCache(probe),
    nvidiaNode ? Promise.resolve(false) : toolRuns(probe, 'nvidia-smi'),
    amdNode ? Promise.resolve(false) : toolRuns(probe, 'rocm-smi'),
  ]);
  const listings = new Map(LIBRARY_DIRS.map((dir) => [dir, probe.list(dir)]));
  const found = (libraries: readonly string[]) =>
    libraries.some(
      (library) =>
        cache.some((file) => provides(file, library)) ||
        [...listings.values()].some((files) => files.some((file) => provides(file, library))),
    );
  const flags: Flags = {
    HasVendorAGpu: nvidiaNode || nvidiaTool,
    HasCudaLibrary: found(LIBRARIES.cuda),
    HasVendorBGpu: amdNode || rocmTool,
    HasRocmLibrary: found(LIBRARIES.rocm),
    HasRenderDevice: probe.exists('/dev/dri/renderD128'),
    HasVulkanLibrary: found(LIBRARIES.vulkan),
    HasOpenMP: found(LIBRARIES.openmp),
    HasAvx: cpuHasAvx(probe),
  };
  return { ...flags, RecommendedVariant: recommendVariant(flags) };
}
