/**
 * What a control hook hands its button (LiveKit's `buttonProps`): the accessible name, the pressed
 * state and the click. The component spreads them on whatever button it draws.
 */
export interface ControlButtonProps {
  'aria-label': string;
  'aria-pressed'?: boolean;
  title: string;
  disabled?: boolean;
  onClick: () => void;
}

export function controlButton(
  label: string,
  onClick: () => void,
  opts: { shortcut?: string; pressed?: boolean; disabled?: boolean } = {},
): ControlButtonProps {
  return {
    'aria-label': label,
    ...(opts.pressed === undefined ? {} : { 'aria-pressed': opts.pressed }),
    title: opts.shortcut ? `${label} (${opts.shortcut})` : label,
    ...(opts.disabled === undefined ? {} : { disabled: opts.disabled }),
    onClick,
  };
}
