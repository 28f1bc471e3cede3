import { execFileSync } from 'node:child_process';
import {
	copyFileSync,
	existsSync,
	mkdirSync,
	mkdtempSync,
	readdirSync,
	renameSync,
	rmSync,
	symlinkSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { packPackage } from '../../test/e2e/harness/package';
import { cacheDir, repoRoot } from '../../test/e2e/harness/paths';
import { removeWhenInterrupted, type BenchEnvironment } from './instance';
import type { BenchContext } from './result';
import { log } from './rounds';

/** The package built from a git revision, packed, in a temporary folder that `remove` deletes. */
export interface BaselineBuild {
	/** As given on the command line, e.g. `HEAD` or `main~3`. */
	rev: string;
	commit: string;
	/** `<short commit> <subject>`. */
	describe: string;
	tarball: string;
	remove(): void;
}

/** What the working tree's side of a paired run is: HEAD, and whether files differ from it. */
export interface WorkingTree {
	commit: string;
	changed: boolean;
	describe: string;
}

/** A bench's context in a paired run: `env` holds the working tree's build, `baseline.env` the other. */
export interface PairedContext extends BenchContext {
	baseline: { env: BenchEnvironment; build: BaselineBuild };
	workingTree: WorkingTree;
}

const git = (args: string[]) =>
	execFileSync('git', args, {
		cwd: repoRoot,
		encoding: 'utf8',
		stdio: ['ignore', 'pipe', 'pipe'],
	}).trim();

export function workingTree(): WorkingTree {
	const commit = git(['rev-parse', 'HEAD']);
	// Tracked files only: results and artifacts the bench writes are not the package's code.
	const changed = git(['status', '--porcelain', '--untracked-files=no']).length > 0;
	return {
		commit,
		changed,
		describe: `${commit.slice(0, 7)}${changed ? ' + uncommitted changes' : ''}`,
	};
}

/**
 * Builds the package as it was at `rev`: `git archive` of that commit into a temporary folder
 * (nothing is written into the repository, unlike a worktree), the repository's node_modules
 * linked in, `npm run build` and `npm pack` there. The folder goes when `remove` is called, or
 * when the process exits or is interrupted before that.
 */
export function buildBaseline(rev: string): BaselineBuild {
	let commit: string;
	try {
		commit = git(['rev-parse', '--verify', '--quiet', `${rev}^{commit}`]);
	} catch {
		throw new Error(`--baseline=${rev}: not a commit of this repository`);
	}
	const describe = git(['log', '-1', '--format=%h %s', commit]);
	const folder = mkdtempSync(path.join(os.tmpdir(), 'n8n-bench-baseline-'));
	const remove = () => rmSync(folder, { recursive: true, force: true });
	removeWhenInterrupted(folder);
	try {
		const checkout = path.join(folder, 'package');
		mkdirSync(checkout);
		const archive = path.join(folder, 'source.tar');
		git(['archive', '--format=tar', `--output=${archive}`, commit]);
		execFileSync('tar', ['-xf', archive, '-C', checkout]);
		rmSync(archive);
		// The same dependencies as the working tree: a revision whose package-lock differs is built
		// with the working tree's packages (the build uses only TypeScript, gulp and type packages).
		symlinkSync(path.join(repoRoot, 'node_modules'), path.join(checkout, 'node_modules'), 'dir');
		log(`baseline ${rev} (${commit.slice(0, 7)}): npm run build in a temporary folder`);
		try {
			execFileSync('npm', ['run', 'build'], { cwd: checkout, encoding: 'utf8', stdio: 'pipe' });
		} catch (error) {
			// tsc reports on stdout.
			const { stdout, stderr } = error as { stdout?: string; stderr?: string };
			const output = `${stdout ?? ''}${stderr ?? ''}`.trim().split('\n').slice(-30).join('\n');
			throw new Error(`baseline ${rev}: npm run build failed\n${output}`);
		}
		const tarball = packPackage(path.join(folder, 'pack'), checkout);
		return { rev, commit, describe, tarball, remove };
	} catch (error) {
		remove();
		throw error;
	}
}

/**
 * The packed build of a fixed commit (40 hex digits), built once and kept in .cache/baselines: a
 * commit's sources do not change, and CI's installer tests on n8n 2.x and 1.x share one build.
 */
export function cachedBaselineTarball(commit: string): string {
	if (!/^[0-9a-f]{40}$/.test(commit)) throw new Error(`${commit}: a full commit id is needed`);
	const folder = path.join(cacheDir, 'baselines', commit);
	const kept = existsSync(folder)
		? readdirSync(folder).find((file) => file.endsWith('.tgz'))
		: undefined;
	if (kept) return path.join(folder, kept);
	const build = buildBaseline(commit);
	try {
		mkdirSync(folder, { recursive: true });
		const tarball = path.join(folder, path.basename(build.tarball));
		copyFileSync(build.tarball, `${tarball}.partial`);
		renameSync(`${tarball}.partial`, tarball);
		return tarball;
	} finally {
		build.remove();
	}
}
