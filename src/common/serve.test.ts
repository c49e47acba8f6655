import http from 'node:http';
import express from 'express';
import { describe, expect, it } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import { closeWebSockets, GOING_AWAY, listen } from './serve';

function get(url: string): Promise<{ status: number | undefined; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, (res) => {
        let body = '';
        res.on('data', (chunk) => {
          body += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode, body }));
      })
      .once('error', reject);
  });
}

describe('graceful close', () => {
  it('stops accepting, finishes the request in flight, runs the hooks first', async () => {
    let arrived: () => void = () => {};
    const inFlight = new Promise<void>((resolve) => {
      arrived = resolve;
    });
    let finish: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      finish = resolve;
    });
    const app = express();
    app.get('/slow', async (_req, res) => {
      arrived();
      await gate;
      res.json({ done: true });
    });
    const running = await listen(app, 0);
    const order: string[] = [];
    running.onClose(() => {
      order.push('hook');
    });
    const answer = get(`${running.url}/slow`);
    await inFlight;
    const closing = running.close().then(() => order.push('closed'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(running.server.listening).toBe(false);
    await expect(get(`${running.url}/slow`)).rejects.toThrow(/ECONNREFUSED/);
    expect(order).toEqual(['hook']);
    finish();
    expect(await answer).toEqual({ status: 200, body: '{"done":true}' });
    await closing;
    expect(order).toEqual(['hook', 'closed']);
  });

  it('closes every WebSocket with 1001 through the hook', async () => {
    const running = await listen(express(), 0);
    const wss = new WebSocketServer({ server: running.server });
    running.onClose(() => closeWebSockets(wss));
    const socket = new WebSocket(running.url.replace('http', 'ws'));
    await new Promise((resolve) => socket.once('open', resolve));
    const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
    await running.close();
    expect(await closed).toBe(GOING_AWAY);
    wss.close();
  });
});
