/** A size in bytes as a person reads it: `42 KB`, `3.4 MB`, `20 GB` (binary units, as file managers count). */
export function formatBytes(bytes: number): string {
  const units = ['bytes', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  const shown = unit === 0 || value >= 10 ? Math.round(value) : Math.round(value * 10) / 10;
  return `${shown.toLocaleString('en')} ${units[unit]}`;
}
