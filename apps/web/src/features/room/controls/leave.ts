import { useCallback } from 'react';
import { useRoomContext } from '../room-context';
import { controlButton } from './button-props';

/** Leaves the meeting: the controller releases everything and shows 'You left the meeting'. */
export function useLeave() {
  const { controller } = useRoomContext();
  const leave = useCallback(() => controller.leave(), [controller]);
  return { leave, buttonProps: controlButton('Leave meeting', leave) };
}
