package classroom

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"sync"
	"time"

	"charm.land/ssh"
	gossh "golang.org/x/crypto/ssh"

	"toolgate/classroom/internal/outside"
	"toolgate/safefile"
)

const (
	// maxKeysFile bounds what is read of an authorized_keys file.
	maxKeysFile = 1 << 20
	// keysRecheck is how often a key lookup may look at the file again: a
	// login makes up to 128 key queries, and each must not cost a read.
	keysRecheck = time.Second
)

// keySet is an authorized_keys file, read again when it changes. A line
// that is not a plain public key is reported (file:line) and skipped: the
// good keys still admit, so one bad line appended while serving does not
// lock everybody out.
type keySet struct {
	path string
	log  func(format string, v ...any)
	now  func() time.Time

	mu      sync.Mutex
	keys    map[string]bool // by the key's wire form
	stamp   fileStamp
	checked time.Time
}

// fileStamp tells whether a file changed since it was read.
type fileStamp struct {
	mod  time.Time
	size int64
	err  string
}

// loadKeySet reads path; it fails only if the file cannot be read at all.
func loadKeySet(path string, log func(string, ...any), now func() time.Time) (*keySet, error) {
	k := &keySet{path: path, log: log, now: now}
	st, err := stampOf(path)
	if err != nil {
		return nil, fmt.Errorf("keys: %w", err)
	}
	if err := k.reload(st); err != nil {
		return nil, err
	}
	return k, nil
}

func stampOf(path string) (fileStamp, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return fileStamp{err: err.Error()}, err
	}
	return fileStamp{mod: fi.ModTime(), size: fi.Size()}, nil
}

// has reports whether key is in the file as it is now.
func (k *keySet) has(key ssh.PublicKey) bool {
	k.mu.Lock()
	defer k.mu.Unlock()
	if now := k.now(); now.Sub(k.checked) >= keysRecheck || now.Before(k.checked) {
		k.checked = now
		if st, _ := stampOf(k.path); st != k.stamp {
			if err := k.reload(st); err != nil {
				// Fail closed: keys that cannot be read admit nobody.
				k.keys = nil
				k.log("keys: %v: no key from it is admitted until it can be read", err)
			}
		}
	}
	return k.keys[string(key.Marshal())]
}

// reload reads the file and reports each line skipped; k.mu is held (or
// k is not shared yet).
func (k *keySet) reload(st fileStamp) error {
	k.stamp = st
	// Not os.Open: opening a named pipe waits for a writer, with k.mu
	// held, and every key login would wait behind it.
	data, err := safefile.ReadRegular(k.path, maxKeysFile)
	if err != nil {
		return outside.PathError(k.path, err)
	}
	keys, problems := parseKeys(data)
	for _, p := range problems {
		k.log("keys %s:%d: skipped: %v", k.path, p.line, p.err)
	}
	k.keys = keys
	return nil
}

// keyProblem is a line of an authorized_keys file that was skipped.
type keyProblem struct {
	line int
	err  error
}

// parseKeys reads the plain public keys of an authorized_keys file. A line
// with options (from=, command=, cert-authority…) is skipped rather than
// read without them: an ignored restriction would admit more than the
// lecturer wrote.
func parseKeys(data []byte) (map[string]bool, []keyProblem) {
	keys := map[string]bool{}
	var problems []keyProblem
	for n, line := range bytes.Split(data, []byte("\n")) {
		line = bytes.TrimSpace(line)
		if len(line) == 0 || line[0] == '#' {
			continue
		}
		key, _, options, _, err := gossh.ParseAuthorizedKey(line)
		switch {
		case err != nil:
			problems = append(problems, keyProblem{n + 1, errors.New("not a public key")})
		case len(options) > 0:
			problems = append(problems, keyProblem{n + 1, errors.New("options are not supported: give the key alone")})
		default:
			keys[string(key.Marshal())] = true
		}
	}
	return keys, problems
}
