import { describe, expect, it } from 'vitest';
import { pollFromHtmlExport, pollFromJsonExport } from './export-polls';

describe('polls of the desktop exports', () => {
  it('reads the JSON export’s poll, counts and flags written as strings included', () => {
    expect(
      pollFromJsonExport({
        question: 'What should we do?',
        closed: false,
        total_voters: 3,
        answers: [
          { text: 'A', voters: '2', chosen: 'true' },
          { text: 'B', voters: 1, chosen: false },
        ],
      }),
    ).toEqual({
      question: 'What should we do?',
      options: [
        { text: 'A', voters: 2, chosen: true, correct: false },
        { text: 'B', voters: 1, chosen: false, correct: false },
      ],
      total_voters: 3,
      closed: false,
      quiz: false,
      multiple_choice: false,
      anonymous: null,
    });
    expect(pollFromJsonExport({ answers: [] })).toBeNull();
  });

  it('reads the HTML export’s poll block: its details line, its answers with votes once shown, its total', () => {
    const open = pollFromHtmlExport({
      question: 'Mild steel is designed by',
      details: 'Anonymous poll',
      answers: [{ text: '- Plastic deformation', votes: '' }],
      total: '278 votes',
    });
    expect(open).toMatchObject({ closed: false, quiz: false, anonymous: true, total_voters: 278 });
    expect(open.options).toEqual([
      { text: 'Plastic deformation', voters: null, chosen: false, correct: false },
    ]);
    const closed = pollFromHtmlExport({
      question: 'Darcy',
      details: 'Final results',
      answers: [{ text: '- Laminar', votes: '109 votes' }],
      total: '1,147 votes',
    });
    expect(closed).toMatchObject({ closed: true, anonymous: null, total_voters: 1147 });
    expect(closed.options[0]?.voters).toBe(109);
    expect(pollFromHtmlExport({ question: 'Q', details: 'Quiz', answers: [], total: '' })).toMatchObject({
      quiz: true,
      anonymous: false,
    });
  });
});
