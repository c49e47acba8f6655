import { describe, expect, it } from 'vitest';
import { duration, listOfNames, quote, serviceLine, serviceOf } from './service-lines';

const line = (action: string | null, details: Record<string, unknown> = {}, actor: string | null = 'Anna') =>
  serviceLine({ action, actor, details });

describe('service lines', () => {
  it('says each action with its actor and what it names', () => {
    expect(line('invite_members', { members: ['Jonas', 'Marta'] }, 'Erik')).toBe(
      'Erik added Jonas and Marta',
    );
    expect(line('remove_members', { members: ['Anna'] })).toBe('Anna left the group');
    expect(line('create_group', { title: 'Crew', members: ['Jonas'] })).toBe(
      'Anna created the group “Crew” with Jonas',
    );
    expect(
      serviceLine({ action: 'pin_message', actor: 'Anna', details: {}, quoted: quote('Release checklist') }),
    ).toBe('Anna pinned “Release checklist”');
    expect(line('pin_message')).toBe('Anna pinned a message');
    expect(line('edit_group_title', { title: 'Crew 2' })).toBe('Anna changed the group name to “Crew 2”');
    expect(line('set_messages_ttl', { period: 86400 })).toBe('Anna set messages to disappear after 1 day');
    expect(line('send_payment', { amount: 999, currency: 'USD' })).toBe('Payment of 9.99 USD sent');
  });

  it('tells calls apart by how they ended', () => {
    expect(line('phone_call', { discard_reason: 'missed' })).toBe('Missed call from Anna');
    expect(line('phone_call', { duration_seconds: 120, discard_reason: 'hangup' })).toBe(
      'Call from Anna, 2 min',
    );
    expect(line('phone_call', { discard_reason: 'hangup' })).toBe('Cancelled call from Anna');
    // A call with a length happened, whatever the reason its end was given.
    expect(line('phone_call', { duration_seconds: 56, discard_reason: 'hangup' })).toBe(
      'Call from Anna, 56 s',
    );
    expect(line('phone_call', { duration_seconds: 45, discard_reason: 'busy' })).toBe('Call from Anna, 45 s');
    expect(line('phone_call', { discard_reason: 'busy' }, null)).toBe('Declined call');
  });

  it('gives an unknown action a readable line, never its code, and an entry with only words those words', () => {
    expect(line('suggest_something_new')).toBe('Anna: suggest something new');
    expect(line('ChatEditSomething')).toBe('Anna: chat edit something');
    expect(line(null, { information_text: 'Custom service text' })).toBe('Custom service text');
    expect(line(null, {}, null)).toBe('Someone: a service notice');
  });

  it('reads a message’s raw data: the export’s words, an action, or nothing for an ordinary message', () => {
    expect(serviceOf({ export_type: 'service', action_text: 'Channel photo changed' }, null)).toEqual({
      action: null,
      text: 'Channel photo changed',
    });
    // The HTML export's pin, in its words, with the pinned message quoted when it is known.
    const pin = { export_type: 'service', action_text: 'Anna pinned this message', message_id: 15 };
    expect(serviceOf(pin, null, '“Exam dates”')?.text).toBe('Anna pinned “Exam dates”');
    expect(serviceOf(pin, null)?.text).toBe('Anna pinned this message');
    expect(serviceOf({ class: 'MessageService', action: 'clear_history' }, 'Anna')).toEqual({
      action: 'clear_history',
      text: 'History was cleared',
    });
    expect(serviceOf({ export_type: 'message' }, 'Anna')).toBeNull();
    expect(serviceOf(null, 'Anna')).toBeNull();
  });

  it('writes durations, lists and quotes as a chat app does', () => {
    expect([duration(45), duration(120), duration(3900), duration(7200)]).toEqual([
      '45 s',
      '2 min',
      '1 h 5 min',
      '2 h',
    ]);
    expect([listOfNames(['A']), listOfNames(['A', 'B']), listOfNames(['A', 'B', 'C'])]).toEqual([
      'A',
      'A and B',
      'A, B and C',
    ]);
    expect(quote(`  ${'word '.repeat(30)}`)).toMatch(/^“word( word)+…”$/);
  });
});
