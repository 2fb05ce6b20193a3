/**
 * A real Python package index for the registry and release suites: pypiserver (from PyPI, in a virtual environment
 * of its own) on 127.0.0.1, its packages in a temporary folder, no authentication (`-a . -P .`: it listens on
 * loopback only); a package it does not hold redirects to PyPI (its fallback), so pip resolves the SDK's
 * dependencies as a user's pip would.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { stopChild } from "@cloudcost/testkit";
import { virtualenv } from "./shell";
import { freePort } from "./verdaccio";

export interface LocalPackageIndex {
  /** `http://127.0.0.1:PORT`: uploads go to `${url}/`, pip reads `${url}/simple/`. */
  url: string;
  stop(): Promise<void>;
}

/** Starts pypiserver 2.4.2 with its tools and packages under ROOT. */
export async function startPypiServer(root: string): Promise<LocalPackageIndex> {
  const tools = await virtualenv(join(root, "pypi-tools"), ["pypiserver==2.4.2"]);
  const packages = join(root, "pypi-packages");
  mkdirSync(packages, { recursive: true });
  const port = await freePort();
  const server: ChildProcess = spawn(
    join(tools, "bin", "pypi-server"),
    ["run", "-i", "127.0.0.1", "-p", String(port), "-a", ".", "-P", ".", packages],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  const url = `http://127.0.0.1:${port}`;
  try {
    await answering(server, `${url}/simple/`);
  } catch (err) {
    await stopChild(server);
    throw err;
  }
  return { url, stop: () => stopChild(server) };
}

/** Resolves once URL answers 200 (pypiserver logs its address nowhere we can read); fails if SERVER exits first or after 60 s. */
async function answering(server: ChildProcess, url: string): Promise<void> {
  let log = "";
  server.stdout!.on("data", (d: Buffer) => (log += d.toString()));
  server.stderr!.on("data", (d: Buffer) => (log += d.toString()));
  for (const deadline = Date.now() + 60_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 200))) {
    if (server.exitCode !== null) throw new Error(`${url}: the server exited (${server.exitCode}):\n${log}`);
    const status = await fetch(url).then(
      (r) => r.status,
      () => 0,
    );
    if (status === 200) return;
  }
  throw new Error(`${url} did not answer within 60 s:\n${log}`);
}
