import { useShortcuts, type ShortcutAction } from '../keyboard';
import { useCameraToggle, useMicToggle, useScreenShareToggle } from './media-controls';
import { usePanels, useRoomDialog } from './panel-controls';

/** The room's single-key shortcuts, driving the same hooks as the buttons. */
export function useRoomShortcuts(): void {
  const mic = useMicToggle();
  const camera = useCameraToggle();
  const screen = useScreenShareToggle();
  const panels = usePanels();
  const help = useRoomDialog('shortcuts');
  useShortcuts((a: ShortcutAction) => {
    switch (a) {
      case 'mute':
        return mic.toggle();
      case 'video':
        return camera.toggle();
      case 'screen':
        return screen.toggle();
      case 'chat':
        return panels.toggle('chat');
      case 'people':
        return panels.toggle('participants');
      case 'tools':
        return panels.toggle('tools');
      case 'escape':
        return panels.set('none');
      case 'help':
        return help.show();
    }
  }, true);
}
