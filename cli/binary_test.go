package cli_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

// The real binary, built once for the tests that run it as a person
// would; removed after the tests.
var binary struct {
	once sync.Once
	dir  string
	path string
	// vcs says it was built with the checkout's commit stamped in;
	// status is what git status said just before the build.
	vcs    bool
	status string
	err    error
}

func TestMain(m *testing.M) {
	code := m.Run()
	if binary.dir != "" {
		os.RemoveAll(binary.dir)
	}
	os.Exit(code)
}

// toolgateBinary builds toolgate (go build, from the module's root) and
// returns its path. In a git clone it is built with -buildvcs=true (the
// project's GOFLAGS may say false), so --version can be checked against
// the commit.
func toolgateBinary(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the binary")
	}
	binary.once.Do(func() {
		binary.dir, binary.err = os.MkdirTemp("", "toolgate-bin")
		if binary.err != nil {
			return
		}
		binary.path = filepath.Join(binary.dir, "toolgate")
		args := []string{"build", "-o", binary.path}
		// Go stamps the commit only where .git is a directory (a clone,
		// not a git worktree, whose .git is a file).
		if info, err := os.Stat("../.git"); err == nil && info.IsDir() {
			if _, err := exec.LookPath("git"); err == nil {
				args, binary.vcs = append(args, "-buildvcs=true"), true
				out, _ := exec.Command("git", "-C", "..", "status", "--porcelain").Output()
				binary.status = string(out)
			}
		}
		build := exec.Command("go", append(args, ".")...)
		build.Dir = ".."
		if out, err := build.CombinedOutput(); err != nil {
			binary.err = fmt.Errorf("go %v: %v\n%s", args, err, out)
		}
	})
	if binary.err != nil {
		t.Fatal(binary.err)
	}
	return binary.path
}
