import { describe, expect, it } from 'vitest';
import { attachmentOf } from './attachments';

describe('attachments in words', () => {
  it('reads the desktop export’s fields', () => {
    expect(
      attachmentOf({
        place_name: 'Office',
        address: '123 Main St',
        location_information: { latitude: 1.5, longitude: 2 },
      }),
    ).toEqual({ kind: 'venue', text: 'Office, 123 Main St, 1.5, 2' });
    expect(attachmentOf({ location_information: { latitude: 1.5, longitude: 2 } })).toEqual({
      kind: 'location',
      text: 'Location: 1.5, 2',
    });
    expect(attachmentOf({ contact_information: { first_name: 'Bob', phone_number: '+1 555' } })).toEqual({
      kind: 'contact',
      text: 'Contact: Bob, +1 555',
    });
    expect(attachmentOf({ invoice_information: { title: 'Plan', amount: 999, currency: 'USD' } })?.text).toBe(
      'Invoice: Plan, 9.99 USD',
    );
    expect(
      attachmentOf({ todo_list: { title: 'Weekend', answers: [{ text: 'Milk' }, { text: 'Ship' }] } })?.text,
    ).toBe('Checklist: Weekend: Milk; Ship');
    expect(attachmentOf({ giveaway_results: { winners_count: 2 } })?.text).toBe(
      'Giveaway results: 2 winners',
    );
  });

  it('names the platform’s kinds, and finds nothing on an ordinary message', () => {
    expect(attachmentOf({ class: 'Message', media: 'MessageMediaDice' })).toEqual({
      kind: 'dice',
      text: 'Dice',
    });
    expect(attachmentOf({ class: 'Message', media: 'MessageMediaWebPage' })).toBeNull();
    expect(attachmentOf({ export_type: 'message' })).toBeNull();
    expect(attachmentOf(null)).toBeNull();
  });
});
