/**
 * A message packed for the trip between threads comes back field for field, through the same structured
 * clone a thread's message goes through; other events pass as they are.
 */
import { deserialize, serialize } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { postEvent, receiveEvent } from './posted-messages';
import type { ImportEvent, ImportedMessage } from './types';

const full: ImportedMessage = {
  id: 9_007_199_254_740_991,
  date: new Date('2024-03-01T10:00:00.123Z'),
  senderId: 42,
  senderName: 'Member',
  text: 'release notes',
  replyToMsgId: 7,
  forwardFromId: -1001234567890,
  editDate: new Date('2024-03-02T11:30:00Z'),
  raw: { entities: [{ type: 'bold', text: 'release' }] },
  media: {
    type: 'photo',
    relativePath: 'photos/photo_1.jpg',
    fileName: 'photo_1.jpg',
    mimeType: 'image/jpeg',
    width: 1280,
    height: 720,
    duration: null,
    fileSize: 123_456,
  },
  poll: {
    question: 'Lunch?',
    options: [{ text: 'Yes', voters: 3, chosen: true, correct: false }],
    total_voters: 3,
    closed: false,
    quiz: false,
    multiple_choice: false,
    anonymous: null,
  },
  reactions: [{ emoji: '👍', count: 2 }],
  pinned: 5,
};

const bare: ImportedMessage = {
  id: 1,
  date: new Date(0),
  senderId: null,
  senderName: null,
  text: null,
  replyToMsgId: null,
  forwardFromId: null,
  editDate: null,
  raw: {},
  media: null,
  poll: null,
  reactions: [],
  pinned: null,
};

const trip = (event: ImportEvent) => receiveEvent(deserialize(serialize(postEvent(event))));

describe('posted messages', () => {
  it.each([
    ['every field set', full],
    ['every field empty', bare],
  ])('%s: the same message after the trip, its extra fields as JSON text', (_, message) => {
    const back = trip({ kind: 'message', message });
    expect(back).toEqual({
      kind: 'message',
      message: { ...message, raw: {}, rawJson: JSON.stringify(message.raw) },
    });
    if (back.kind === 'message') expect(back.message.date).toBeInstanceOf(Date);
  });

  it('keeps JSON text already written by the reader', () => {
    const back = trip({ kind: 'message', message: { ...bare, rawJson: '{"a":1}' } });
    expect(back.kind === 'message' && back.message.rawJson).toBe('{"a":1}');
  });

  it.each<ImportEvent>([
    { kind: 'account', userId: 5 },
    { kind: 'chat', chat: { id: -1001, type: 'supergroup', exportType: 'private_supergroup', title: 'T' } },
    { kind: 'skipped', reason: 'no date' },
    { kind: 'end' },
  ])('passes a $kind event as it is', (event) => {
    expect(trip(event)).toEqual(event);
  });
});
