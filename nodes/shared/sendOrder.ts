/** Thrown to an item that must not send because an earlier item failed and the run stops. */
export class RunStopped extends Error {
	constructor() {
		super('The run stopped at an earlier item');
	}
}

interface Waiter {
	resolve: () => void;
	reject: (error: Error) => void;
}

/**
 * Lets the items of one run send their requests at the same time without losing what a one-by-one
 * loop guarantees: an item sends nothing before every earlier item has passed its checks (reached
 * its first request) or finished, and once an item has failed in a run that stops on failure, no
 * later item sends anything more.
 */
export class SendOrder {
	private readonly ready: boolean[];
	/** Every item before this index has passed its checks or finished. */
	private firstNotReady = 0;
	private stoppedAt = Number.POSITIVE_INFINITY;
	private readonly waiters = new Map<number, Waiter>();

	constructor(itemCount: number) {
		this.ready = new Array<boolean>(itemCount).fill(false);
	}

	/** Resolves when `itemIndex` may send; rejects with RunStopped when it never may. */
	async turn(itemIndex: number): Promise<void> {
		if (itemIndex > this.stoppedAt) throw new RunStopped();
		this.markReady(itemIndex);
		if (this.firstNotReady >= itemIndex) return;
		await new Promise<void>((resolve, reject) => this.waiters.set(itemIndex, { resolve, reject }));
	}

	/** The item is done, successfully or not: it holds no later item back any more. */
	finished(itemIndex: number): void {
		this.markReady(itemIndex);
	}

	/** The item failed and the run stops: later items send nothing more. */
	stopAfter(itemIndex: number): void {
		this.stoppedAt = Math.min(this.stoppedAt, itemIndex);
		for (const [index, waiter] of this.waiters) {
			if (index > this.stoppedAt) {
				this.waiters.delete(index);
				waiter.reject(new RunStopped());
			}
		}
		this.markReady(itemIndex);
	}

	private markReady(itemIndex: number): void {
		this.ready[itemIndex] = true;
		while (this.firstNotReady < this.ready.length && this.ready[this.firstNotReady]) {
			this.firstNotReady++;
		}
		for (const [index, waiter] of this.waiters) {
			if (index <= this.firstNotReady) {
				this.waiters.delete(index);
				waiter.resolve();
			}
		}
	}
}

const runs = new WeakMap<object, SendOrder>();

export function setSendOrder(context: object, order: SendOrder | undefined): void {
	if (order) runs.set(context, order);
	else runs.delete(context);
}

/** Waits for the item's turn to send, when the node runs its items concurrently. */
export async function waitForTurnToSend(context: object, itemIndex?: number): Promise<void> {
	if (itemIndex === undefined) return;
	await runs.get(context)?.turn(itemIndex);
}
