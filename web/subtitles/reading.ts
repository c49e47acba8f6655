import type { SetupStatus } from './api';

/** The plain-text reading of the status flags (the seed's combinations first). */
export function readingOf(status: SetupStatus): string[] {
  const { Gpu: gpu } = status;
  const lines: string[] = [];
  if (!status.SetupComplete && !status.BinaryFound && !status.ModelFound)
    lines.push('The engine was never installed: neither a binary nor a model was found.');
  else if (!status.BinaryFound) lines.push('A model is present but the engine binary is missing.');
  else if (!status.ModelFound) lines.push('The engine binary is present but no model was found.');
  if (status.BinaryFoundInPath)
    lines.push('The binary is taken from the system PATH; no downloaded or configured copy exists.');
  if (gpu.HasVendorAGpu && !gpu.HasCudaLibrary)
    lines.push(
      'A GPU device was passed through without its CUDA runtime libraries, so a CPU build is recommended.',
    );
  if (gpu.HasVendorBGpu && !gpu.HasRocmLibrary)
    lines.push('A ROCm device is present without libamdhip64.so, so the ROCm build cannot be used.');
  if (gpu.HasRenderDevice && !gpu.HasVulkanLibrary)
    lines.push('A render device is present without libvulkan.so.1, so the Vulkan build cannot be used.');
  if (!gpu.HasAvx)
    lines.push('The CPU lacks AVX2: only the *-noavx builds run; the others stop with SIGILL (exit 132).');
  if (!gpu.HasOpenMP) lines.push('OpenMP (libgomp.so.1) is missing: the self-contained noavx build is used.');
  if (status.InstalledVariant && status.InstalledVariant !== gpu.RecommendedVariant)
    lines.push(
      `The installed build (${status.InstalledVariant}) differs from the one this hardware suits (${gpu.RecommendedVariant}).`,
    );
  if (lines.length === 0)
    lines.push(`Everything is in place; the ${gpu.RecommendedVariant} build suits this hardware.`);
  return lines;
}
