"""Reads shared by a row or a column of cores: one core reads them from DRAM and multicasts them.

When the block partition is a rectangle of cores that step through their blocks in lockstep
(``LockstepGrid``: every core of a row computes the same block rows, every core of a column the same block
columns, each core the same number of blocks), a reader's tile block whose position depends only on the
block row (A of a GEMM) is the same on every core of a row at every step, and one that depends only on the
block column (B) is the same down a column. One core of the row (column) then reads it and multicasts it
into the same CB slot of the others, which are at the same write pointer because they made the same
pushes. This divides the DRAM traffic of a shared operand by the number of cores sharing it. Row y's
sender is core (y mod cores_x, y) and column x's is core (x, (x + 1) mod cores_y), so no core sends both
ways (the SDK's matmul puts the two senders on two RISCs instead); the multicast rectangle is the whole row
(column), which a multicast without loopback delivers to every core but its source.

The hand-off uses two semaphores per direction, as the SDK's reuse-multicast matmul does:

    receiver: valid = INVALID; noc_semaphore_inc(sender's ready, 1); noc_semaphore_wait(valid, VALID)
    sender:   noc_semaphore_wait(ready, receivers); ready = 0; noc_async_write_multicast(slot);
              noc_semaphore_set_multicast(valid → receivers); noc_async_write_barrier()

A receiver signals ready only after its cb_reserve_back, so the slot the sender writes into is free. The
sender waits for its writes before pushing, so the next read into that slot cannot overwrite data still
being sent. ``FIELDS`` are the runtime arguments each direction adds to the reader (the host fills them in
from the core's position; see codegen/host.py).
"""

from __future__ import annotations

from tvm import tirx

from .ir_utils import comment, extern, l1_word_pointer, l1_words_of, named, seq
from .records import RuntimeArg

# The reader's runtime arguments of one direction, in slot order (prefixed "row_" / "col_"), and what
# each holds (the kernel's header comment): "{what}" is "row-shared" or "column-shared".
FIELD_MEANINGS = {
    "is_sender": "1 if this core reads the {what} tiles and multicasts them",
    "sender_x": "NOC x of the core that multicasts the {what} tiles",
    "sender_y": "NOC y of that core",
    "dest_x0": "NOC rectangle it multicasts to (its row or column, itself skipped): start x",
    "dest_y0": "start y",
    "dest_x1": "end x",
    "dest_y1": "end y",
    "receivers": "number of cores that receive",
    "ready_semaphore": "semaphore the receivers increment when their CB slot is free",
    "valid_semaphore": "semaphore the sender sets when the tiles have arrived",
}
FIELDS = tuple(FIELD_MEANINGS)
DIRECTIONS = ("row", "col")
WHAT = {"row": "row-shared", "col": "column-shared"}
VALID, INVALID = 1, 0


def runtime_args(direction: str) -> list[RuntimeArg]:
    return [RuntimeArg(name=f"{direction}_{f}", kind="multicast") for f in FIELDS]


def arg_meaning(name: str) -> str:
    direction, field = name.split("_", 1)
    return FIELD_MEANINGS[field].format(what=WHAT[direction])


def shared_direction(uses_row_axis: bool, uses_col_axis: bool, cores_x: int, cores_y: int) -> str | None:
    """The direction a block read is multicast along: "row" when its position does not depend on the
    block column (the cores of a row all read it), "col" when it does not depend on the block row."""
    if not uses_col_axis and cores_x > 1:
        return "row"
    if not uses_row_axis and cores_y > 1:
        return "col"
    return None


class Direction:
    """The hand-off code of one direction ("row" or "col") of one reader kernel; its semaphore pointers are
    bound once, before the work loop (``prologue``), and used by every ``handoff``."""

    def __init__(self, direction: str):
        self.d = direction
        self.addr = {w: tirx.Var(f"{direction}_{w}_addr", "int32") for w in ("ready", "valid")}
        self.word = {w: l1_word_pointer(f"{direction}_{w}") for w in ("ready", "valid")}

    def arg(self, field: str) -> tirx.Var:
        return named(f"{self.d}_{field}")

    def prologue(self) -> list[tirx.Stmt]:
        """The semaphores as L1 word pointers; the sender's own valid word holds VALID, the value it
        multicasts to the receivers."""
        stmts = [comment(f"{WHAT[self.d].capitalize()} tiles: the semaphores of their hand-off")]
        for w in ("ready", "valid"):
            semaphore = tirx.call_extern("int32", "get_semaphore", self.arg(f"{w}_semaphore"))
            stmts += [tirx.Bind(self.addr[w], semaphore), tirx.Bind(self.word[w], l1_words_of(self.addr[w]))]
        set_valid = extern("noc_semaphore_set", self.word["valid"], VALID)
        return stmts + [tirx.IfThenElse(self.arg("is_sender") == 1, set_valid, None)]

    def handoff(self, blocks: list[tuple]) -> tirx.Stmt:
        """After the reads of one step: the sender multicasts each (L1 address, bytes) block into the
        receivers' identical CB slots; a receiver announces its free slot and waits for the data."""
        rect = [self.arg(f"dest_{c}") for c in ("x0", "y0", "x1", "y1")]
        receivers = self.arg("receivers")

        def mcast_addr(addr):
            return tirx.call_extern("int64", "get_noc_multicast_addr", *rect, addr)

        ready, valid = self.word["ready"], self.word["valid"]
        send = [extern("noc_semaphore_wait", ready, receivers), extern("noc_semaphore_set", ready, INVALID)]
        send += [
            extern("noc_async_write_multicast", addr, mcast_addr(addr), nbytes, receivers)
            for addr, nbytes in blocks
        ]
        valid_addr = self.addr["valid"]
        send += [
            extern("noc_semaphore_set_multicast", valid_addr, mcast_addr(valid_addr), receivers),
            extern("noc_async_write_barrier"),
        ]
        sender_ready = tirx.call_extern(
            "int64", "get_noc_addr", self.arg("sender_x"), self.arg("sender_y"), self.addr["ready"]
        )
        receive = [
            extern("noc_semaphore_set", valid, INVALID),
            extern("noc_semaphore_inc", sender_ready, 1),
            extern("noc_semaphore_wait", valid, VALID),
        ]
        line = "row" if self.d == "row" else "column"
        return seq(
            [
                comment(
                    f"{WHAT[self.d].capitalize()} tiles: one core of the {line} multicasts them into the "
                    f"same CB slot of the others"
                ),
                tirx.IfThenElse(self.arg("is_sender") == 1, seq(send), seq(receive)),
            ]
        )
