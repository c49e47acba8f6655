/** A stand-in for the central bank's daily reference rate file (`eurofxref-daily.xml`). */
import { type FailureMode, garbage, type Running, serve } from './serve';

export interface FakeEcb extends Running {
  mode: FailureMode;
  date: string;
  rates: Record<string, number>;
  readonly requests: number;
  reset(): void;
}

export const SAMPLE_ECB_RATES: Record<string, number> = {
  USD: 1.1312,
  JPY: 163.12,
  CZK: 24.936,
  DKK: 7.4601,
  GBP: 0.8479,
  HUF: 402.15,
  PLN: 4.2693,
  RON: 5.0761,
  SEK: 10.9355,
  CHF: 0.9371,
  ISK: 143.9,
  NOK: 11.5935,
  TRY: 43.8621,
  AUD: 1.7602,
  MXN: 21.9864,
};

export function ecbXml(date: string, rates: Record<string, number>): string {
  const cubes = Object.entries(rates)
    .map(([currency, rate]) => `\t\t\t<Cube currency='${currency}' rate='${rate}'/>`)
    .join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>
<gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref">
\t<gesmes:subject>Reference rates</gesmes:subject>
\t<gesmes:Sender>
\t\t<gesmes:name>European Central Bank</gesmes:name>
\t</gesmes:Sender>
\t<Cube>
\t\t<Cube time='${date}'>
${cubes}
\t\t</Cube>
\t</Cube>
</gesmes:Envelope>
`;
}

export async function startFakeEcb(): Promise<FakeEcb> {
  let requests = 0;
  const fake = {
    mode: 'ok',
    date: '2026-05-11',
    rates: SAMPLE_ECB_RATES,
    get requests() {
      return requests;
    },
    reset() {
      fake.mode = 'ok';
      fake.date = '2026-05-11';
      fake.rates = SAMPLE_ECB_RATES;
      requests = 0;
    },
  } as FakeEcb;
  const running = await serve((_req, res) => {
    requests++;
    if (fake.mode === 'hang') return;
    if (fake.mode === 'error') {
      res.writeHead(503, { 'Content-Type': 'text/html' });
      res.end('<html><body>Service Unavailable</body></html>');
      return;
    }
    if (fake.mode === 'garbage') return garbage(res);
    res.writeHead(200, { 'Content-Type': 'text/xml' });
    res.end(ecbXml(fake.date, fake.rates));
  });
  return Object.assign(fake, {
    url: `${running.url}/stats/eurofxref/eurofxref-daily.xml`,
    close: running.close,
  });
}
