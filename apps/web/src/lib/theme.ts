/** Dark mode is a local preference only (spec §2): remembered in local storage, never sent. */
export const THEME_STORAGE_KEY = 'parley-theme';

export function isDarkPreferred(): boolean {
  try {
    return localStorage.getItem(THEME_STORAGE_KEY) === 'dark';
  } catch {
    return false;
  }
}

export function applyTheme(dark: boolean): void {
  document.documentElement.classList.toggle('dark', dark);
}

export function setDarkMode(dark: boolean): void {
  try {
    localStorage.setItem(THEME_STORAGE_KEY, dark ? 'dark' : 'light');
  } catch {
    // storage may be unavailable (private mode); the theme still applies for this page
  }
  applyTheme(dark);
}
