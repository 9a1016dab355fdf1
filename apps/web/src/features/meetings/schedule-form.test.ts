import { describe, expect, it } from 'vitest';
import { inviteesToSend, newForm, parseMaxParticipants, toBody, validateForm } from './schedule-form';

const NOW = new Date('2030-05-01T12:00:00Z');

describe('schedule form', () => {
  it('falls back to 100 participants when empty or invalid and keeps 2 to 500', () => {
    expect(parseMaxParticipants('')).toBe(100);
    expect(parseMaxParticipants('abc')).toBe(100);
    expect(parseMaxParticipants('12.5')).toBe(100);
    expect(parseMaxParticipants('1')).toBe(2);
    expect(parseMaxParticipants('900')).toBe(500);
    expect(parseMaxParticipants(' 42 ')).toBe(42);
  });

  it('checks title, host email, date, then a future date, in that order', () => {
    const form = { ...newForm(''), title: '' };
    expect(validateForm(form, NOW)?.title).toBe('Title required');
    form.title = 'Sync';
    expect(validateForm(form, NOW)?.title).toBe('Host email required');
    form.hostEmail = 'h@example.com';
    expect(validateForm(form, NOW)?.title).toBe('Date and time required');
    form.when = '2030-05-01T13:59';
    form.timezone = 'Europe/Paris'; // 11:59 UTC: already past
    expect(validateForm(form, NOW)).toEqual({
      title: 'Invalid date',
      description: 'Please select a future date and time',
    });
    form.timezone = 'UTC';
    expect(validateForm(form, NOW)).toBeNull();
  });

  it('drops invitee rows without email and sends password and recurrence only when switched on', () => {
    const form = {
      ...newForm('h@example.com'),
      title: 'Sync',
      when: '2030-06-01T09:00',
      timezone: 'America/New_York' as const,
      password: 'kept-out',
      invitees: [
        { key: 1, email: ' a@example.com ', name: ' A ' },
        { key: 2, email: '', name: 'nobody' },
      ],
    };
    expect(inviteesToSend(form.invitees)).toEqual([{ email: 'a@example.com', name: 'A' }]);
    const body = toBody(form);
    expect(body.scheduledFor).toBe('2030-06-01T13:00:00.000Z');
    expect(body).not.toHaveProperty('password');
    expect(body).not.toHaveProperty('recurrencePattern');
    const on = toBody({ ...form, requiresPassword: true, isRecurring: true, recurrencePattern: 'monthly' });
    expect(on).toMatchObject({ password: 'kept-out', recurrencePattern: 'monthly', isRecurring: true });
  });
});
