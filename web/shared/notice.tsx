import type { ComponentChildren } from 'preact';

export type NoticeKind = 'error' | 'warning' | 'ok';

/**
 * One line the page tells its reader: an error is announced at once (`alert`), anything else when the
 * reader is free (`status`). `wide` spans the page's grid.
 */
export function Notice(props: { kind?: NoticeKind; wide?: boolean; children: ComponentChildren }) {
  const classes = ['notice', props.kind, props.wide ? 'wide' : undefined].filter(Boolean).join(' ');
  return (
    <p class={classes} role={props.kind === 'error' ? 'alert' : 'status'}>
      {props.children}
    </p>
  );
}
