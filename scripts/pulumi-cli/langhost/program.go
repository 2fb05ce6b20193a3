package langhost

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"syscall"
	"time"

	"github.com/pulumi/pulumi/sdk/v3/go/common/constant"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
)

// ConfigJSON is the stack configuration and the names of its secret keys, JSON-encoded as every SDK reads
// them from PULUMI_CONFIG and PULUMI_CONFIG_SECRET_KEYS (empty object and list rather than null).
func ConfigJSON(req *pulumirpc.RunRequest) (config, secretKeys string, err error) {
	values := req.GetConfig()
	if values == nil {
		values = map[string]string{}
	}
	keys := req.GetConfigSecretKeys()
	if keys == nil {
		keys = []string{}
	}
	encodedValues, err := json.Marshal(values)
	if err != nil {
		return "", "", fmt.Errorf("could not encode the stack configuration: %w", err)
	}
	encodedKeys, err := json.Marshal(keys)
	if err != nil {
		return "", "", fmt.Errorf("could not encode the stack's secret keys: %w", err)
	}
	return string(encodedValues), string(encodedKeys), nil
}

// RunProgram runs CMD (a program process set up by the host) to its end, its output the host's own, and turns
// the outcome into the engine's answer. Exit code 32 (constant.ExitStatusLoggedError: the Node.js, Python and
// Go SDKs all use it) means the program has already shown the user what went wrong: the run bails without a
// second message. CMD must come from exec.CommandContext(CTX, …) with CTX from Base.ProgramContext: cancelling
// it, or the host being told to stop, kills the program.
//
// Killed, not interrupted: the engine cancels a run only once it has already told the user why (a provider's
// configuration refused, an error elsewhere, the user's own ^C), and a program has nothing left to do then.
// Pulumi's own hosts end it the same way (exec.CommandContext's default Cancel, os.Process.Kill); an interrupt
// made Python print two KeyboardInterrupt tracebacks from pulumi-language-python-exec above the engine's
// message (issue 33).
//
// In a process group of its own (issue 39): when the engine closes a language host it interrupts the host's
// whole process group (cmdutil.InterruptChildren: SIGINT to -pid) and only then waits for it to exit. A program
// in the host's group got that SIGINT too, and whether Python printed its KeyboardInterrupt tracebacks before
// the host's kill arrived was a race the busier machine lost. Now the interrupt reaches the host alone, which
// kills the program's group (the program and anything it started) and lets nothing of it through.
func RunProgram(ctx context.Context, cmd *exec.Cmd) *pulumirpc.RunResponse {
	// Wrapped so that os/exec copies through a pipe: a child may switch a shared descriptor to non-blocking mode.
	cmd.Stdout = struct{ *os.File }{os.Stdout}
	cmd.Stderr = struct{ *os.File }{os.Stderr}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	// The pipes above are closed this long after the program ends, even if a child of it still holds them.
	cmd.WaitDelay = 5 * time.Second
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return &pulumirpc.RunResponse{}
	case errors.As(err, &exit) && exit.ExitCode() == constant.ExitStatusLoggedError:
		return &pulumirpc.RunResponse{Bail: true}
	case errors.As(err, &exit):
		return &pulumirpc.RunResponse{Error: fmt.Sprintf("program exited with non-zero exit code: %d", exit.ExitCode())}
	default:
		return &pulumirpc.RunResponse{Error: "could not start the program: " + err.Error()}
	}
}
