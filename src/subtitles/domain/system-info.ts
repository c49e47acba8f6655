/**
 * What the media server says about itself: `System/Info/Public` before sign-in, `System/Info` for
 * administrators.
 */
import type { ServerVersion } from '../config';

/** The product name the official clients check before they recommend a server. */
export const PRODUCT_NAME = 'Jellyfin Server' as const;

/** `10.11` → `10.11.0`: clients compare three-part versions. */
export function fullVersion(version: ServerVersion): string {
  const parts = version.text.split('.');
  while (parts.length < 3) parts.push('0');
  return parts.slice(0, 3).map(Number).join('.');
}

export interface PublicSystemInfo {
  LocalAddress: string;
  ServerName: string;
  Version: string;
  ProductName: typeof PRODUCT_NAME;
  Id: string;
  StartupWizardCompleted: boolean;
}

export function publicSystemInfo(input: {
  localAddress: string;
  serverName: string;
  version: ServerVersion;
  serverId: string;
}): PublicSystemInfo {
  return {
    LocalAddress: input.localAddress,
    ServerName: input.serverName,
    Version: fullVersion(input.version),
    ProductName: PRODUCT_NAME,
    Id: input.serverId,
    // Users and keys come from the command line: there is no wizard to finish.
    StartupWizardCompleted: true,
  };
}

const OS_NAMES: Record<string, string> = { linux: 'Linux', darwin: 'macOS', win32: 'Windows' };

export function systemInfo(publicInfo: PublicSystemInfo, platform: NodeJS.Platform) {
  return {
    ...publicInfo,
    OperatingSystemDisplayName: OS_NAMES[platform] ?? platform,
    HasPendingRestart: false,
    IsShuttingDown: false,
  };
}
