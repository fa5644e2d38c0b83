# SPDX-License-Identifier: GPL-2.0
"""A QEMU Machine Protocol client: just what the snapshots need
(docs/architecture.md, "Snapshots")."""
import json
import socket
import time

from .paths import InfraError


class QMP:
    """A connection to QEMU's -qmp unix:PATH,server=on,wait=off socket."""

    def __init__(self, path, timeout=30, proc=None):
        """Connect to PATH within TIMEOUT seconds, or as long as PROC (the
        QEMU process, when given) runs."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                self.sock = socket.socket(socket.AF_UNIX)
                self.sock.settimeout(timeout)
                self.sock.connect(path)
                break
            except OSError as e:
                self.sock.close()
                if proc is not None and proc.poll() is not None:
                    raise InfraError(f'qemu: exited with status {proc.returncode}')
                if time.monotonic() > deadline:
                    raise InfraError(f'qemu: no QMP socket at {path}: {e}')
                time.sleep(0.01)
        self.buf = b''
        self.reply()                        # the greeting
        self.cmd('qmp_capabilities')

    def reply(self):
        """The next message that is not an event."""
        while True:
            while b'\n' not in self.buf:
                try:
                    data = self.sock.recv(65536)
                except OSError as e:
                    raise InfraError(f'qemu: QMP: {e}')
                if not data:
                    raise InfraError('qemu: QMP: QEMU closed the connection')
                self.buf += data
            line, self.buf = self.buf.split(b'\n', 1)
            try:
                msg = json.loads(line)
            except ValueError:
                raise InfraError(f'qemu: QMP: not JSON: {line[:80]!r}')
            if 'event' not in msg:
                return msg

    def cmd(self, name, args=None):
        """Run command NAME with ARGS (a dict); its return value.  Raises
        InfraError when QEMU answers with an error."""
        msg = {'execute': name}
        if args:
            msg['arguments'] = args
        try:
            self.sock.sendall(json.dumps(msg).encode() + b'\n')
        except OSError as e:
            raise InfraError(f'qemu: QMP {name}: {e}')
        answer = self.reply()
        if 'error' in answer:
            raise InfraError(f'qemu: QMP {name}: {answer["error"].get("desc")}')
        return answer.get('return')

    def wait(self, what, cond, timeout, poll=0.01):
        """Poll query-WHAT until COND(its return) holds; that return."""
        deadline = time.monotonic() + timeout
        while True:
            ret = self.cmd('query-' + what)
            if cond(ret):
                return ret
            if time.monotonic() > deadline:
                raise InfraError(f'qemu: QMP query-{what} after {timeout} s: {ret}')
            time.sleep(poll)

    def close(self):
        self.sock.close()
