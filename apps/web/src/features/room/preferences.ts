/**
 * The Account tab's three preference switches (spec §2): join muted (default on), join with the
 * camera off (default off), AI features (default on). Kept in local storage under the spec's
 * keys (cleared with the other user data when nobody is signed in).
 */
export interface RoomPreferences {
  joinMuted: boolean;
  joinCameraOff: boolean;
  aiEnabled: boolean;
}

export const DEFAULT_PREFERENCES: RoomPreferences = {
  joinMuted: true,
  joinCameraOff: false,
  aiEnabled: true,
};

function read(key: string): Record<string, unknown> {
  try {
    const v: unknown = JSON.parse(localStorage.getItem(key) ?? '{}');
    return v && typeof v === 'object' ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

export function loadPreferences(): RoomPreferences {
  const audio = read('audio-settings');
  const video = read('video-settings');
  const ai = read('ai-settings');
  return {
    joinMuted: typeof audio.joinMuted === 'boolean' ? audio.joinMuted : DEFAULT_PREFERENCES.joinMuted,
    joinCameraOff:
      typeof video.joinCameraOff === 'boolean' ? video.joinCameraOff : DEFAULT_PREFERENCES.joinCameraOff,
    aiEnabled: typeof ai.aiEnabled === 'boolean' ? ai.aiEnabled : DEFAULT_PREFERENCES.aiEnabled,
  };
}

export function savePreferences(p: RoomPreferences): void {
  try {
    localStorage.setItem(
      'audio-settings',
      JSON.stringify({ ...read('audio-settings'), joinMuted: p.joinMuted }),
    );
    localStorage.setItem(
      'video-settings',
      JSON.stringify({ ...read('video-settings'), joinCameraOff: p.joinCameraOff }),
    );
    localStorage.setItem('ai-settings', JSON.stringify({ ...read('ai-settings'), aiEnabled: p.aiEnabled }));
  } catch {
    // storage full or disabled: the switches still work for this visit
  }
}
