package langhost

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"syscall"
	"testing"
	"time"
)

// helperEnv marks the test binary started as a language host by TestInterruptedHostEndsItsProgramSilently.
const helperEnv = "LANGHOST_TEST_AS_HOST"

// A program that says so when it is interrupted, as Python does with a KeyboardInterrupt traceback.
const interruptible = `trap 'echo "the program was interrupted"; exit 1' INT; echo started; while :; do sleep 0.05; done`

// Issue 39: when the engine closes a language host it interrupts the host's whole process group
// (cmdutil.InterruptChildren, SIGINT to -pid: every plugin leads a group of its own) and waits for the host to
// exit. A program in the host's group got that interrupt too and could print before the host killed it. The
// program now leads a group of its own, and the host, told to stop, kills it: nothing of it reaches the output.
func TestInterruptedHostEndsItsProgramSilently(t *testing.T) {
	if os.Getenv(helperEnv) == "1" {
		actAsHost()
		return
	}
	// The old way lost the race in about one round of three: ten rounds make a regression show in most runs.
	for round := 1; round <= 10; round++ {
		interruptHost(t, round)
	}
}

// interruptHost starts the test binary as a language host running one program, interrupts the host's group once
// the program runs, and checks that the run ended with the program killed and silent.
func interruptHost(t *testing.T, round int) {
	t.Helper()
	host := exec.Command(os.Args[0], "-test.run=^TestInterruptedHostEndsItsProgramSilently$")
	host.Env = append(os.Environ(), helperEnv+"=1")
	// As the engine starts every plugin (cmdutil.RegisterProcessGroup).
	host.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	out, err := host.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	host.Stderr = host.Stdout
	if err := host.Start(); err != nil {
		t.Fatal(err)
	}
	// A bound against a hang, not a verdict on speed.
	bound := time.AfterFunc(2*time.Minute, func() { _ = syscall.Kill(-host.Process.Pid, syscall.SIGKILL) })
	defer bound.Stop()

	lines := bufio.NewScanner(out)
	var said []string
	for lines.Scan() {
		said = append(said, lines.Text())
		if lines.Text() == "started" {
			// What the engine's plugin shutdown does (cmdutil.InterruptChildren).
			if err := syscall.Kill(-host.Process.Pid, syscall.SIGINT); err != nil {
				t.Fatal(err)
			}
		}
	}
	_ = host.Wait()
	if !bound.Stop() {
		t.Fatalf("round %d: the host did not end after its interrupt; it said: %q", round, said)
	}
	if want := []string{"started", "the run ended: program exited with non-zero exit code: -1"}; strings.Join(said, "\n") != strings.Join(want, "\n") {
		t.Fatalf("round %d: the host said %q, want %q (the program killed, without a word)", round, said, want)
	}
}

// actAsHost runs one program the way our hosts do (Serve's Stopping, ProgramContext, RunProgram) and reports the
// run's outcome when the program has ended.
func actAsHost() {
	stopping, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	base := &Base{Stopping: stopping}
	ctx, done := base.ProgramContext(context.Background())
	defer done()
	response := RunProgram(ctx, exec.CommandContext(ctx, "sh", "-c", interruptible))
	os.Stdout.WriteString("the run ended: " + response.GetError() + "\n")
	done()
	os.Exit(0) // before the testing package prints its verdict into the output the test reads
}
