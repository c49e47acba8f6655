/** Why a file is not in the archive, in words: the page never shows the stored code itself. */
const SKIP_REASONS: Record<string, string> = {
  not_in_export: 'the export did not include it',
  skipped_on_import: 'left out when the export was imported',
  oversize: 'larger than the download limit',
  filtered: 'filtered out by the backup settings',
};

/** The reason in words; one this page does not know yet is shown as its words (`too_old` → `too old`). */
export const skipReasonText = (reason: string): string => SKIP_REASONS[reason] ?? reason.replace(/_/g, ' ');
