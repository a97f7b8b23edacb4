/**
 * Reference-counted ownership of a connection (pool, client, database handle) shared by a store
 * and its forks: what the store opened itself is closed when the last store using it closes; what
 * the caller passed in is never closed by us.
 * @module
 */

/** One holder's share of a resource. */
export interface SharedResource<T> {
  /** The resource. */
  readonly value: T;
  /** Another share for a new holder (a fork), keeping the resource open until it is released too. */
  share(): SharedResource<T>;
  /** Gives this share up; the last share of an owned resource disposes of it. Idempotent. */
  release(): Promise<void>;
}

/** A resource the store opened itself: disposed of when every share is released. */
export function ownedResource<T>(value: T, dispose: (value: T) => Promise<void> | void): SharedResource<T> {
  const counter = { holders: 0 };
  const createShare = (): SharedResource<T> => {
    counter.holders++;
    let released = false;
    return {
      value,
      share: createShare,
      async release() {
        if (released) return;
        released = true;
        if (--counter.holders === 0) await dispose(value);
      },
    };
  };
  return createShare();
}

/** A resource the caller passed in: never disposed of by the store. */
export function borrowedResource<T>(value: T): SharedResource<T> {
  return ownedResource(value, () => undefined);
}
