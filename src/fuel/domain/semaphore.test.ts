import { describe, expect, it } from 'vitest';
import { Semaphore } from './semaphore';

describe('Semaphore', () => {
  it('holds at most its size and serves waiters in order', async () => {
    const sem = new Semaphore(2);
    const order: number[] = [];
    await sem.acquire();
    await sem.acquire();
    const third = sem.acquire().then(() => order.push(3));
    const fourth = sem.acquire().then(() => order.push(4));
    expect(sem.inUse).toBe(2);
    sem.release();
    await third;
    sem.release();
    await fourth;
    expect(order).toEqual([3, 4]);
    expect(sem.inUse).toBe(2);
  });

  it('lets a waiter give up without taking a place', async () => {
    const sem = new Semaphore(1);
    await sem.acquire();
    const controller = new AbortController();
    const gaveUp = sem.acquire(controller.signal);
    controller.abort(new Error('gone'));
    await expect(gaveUp).rejects.toThrow('gone');
    sem.release();
    expect(sem.inUse).toBe(0);
    await expect(sem.acquire(controller.signal)).rejects.toThrow('gone');
  });
});
