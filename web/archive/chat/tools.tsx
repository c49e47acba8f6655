export type Panel = 'calendar' | 'gallery' | 'export' | 'info' | null;

/** The chat's tools, each opening its panel (or closing it again). */
export function ChatTools(props: { panel: Panel; onPanel: (panel: Panel) => void; noDownload: boolean }) {
  const toggle = (panel: Exclude<Panel, null>, label: string) => (
    <button
      type="button"
      aria-pressed={props.panel === panel}
      onClick={() => props.onPanel(props.panel === panel ? null : panel)}
    >
      {label}
    </button>
  );
  return (
    <div class="tools" role="toolbar" aria-label="Chat tools">
      {toggle('calendar', 'Jump to date')}
      {toggle('gallery', 'Media')}
      {!props.noDownload && toggle('export', 'Export')}
      {toggle('info', 'Info')}
    </div>
  );
}
