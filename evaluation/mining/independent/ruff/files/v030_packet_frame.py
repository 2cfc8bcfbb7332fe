"""Frames exchanged with the telemetry gateway."""

import struct
from dataclasses import dataclass


@dataclass
class Frame:
    device_id: int
    sequence: int
    payload: bytes

    def header(self) -> bytes:
        return struct.pack(">HI", self.device_id, self.sequence)

    def __bytes__(self) -> bytes:
        return f"{self.device_id:04x}{self.sequence:08x}{self.payload.hex()}"

    def __len__(self) -> int:
        return 6 + len(self.payload)


def frames_to_wire(frames: list[Frame]) -> list[int]:
    return [len(frame) for frame in frames]


if __name__ == "__main__":
    print(len(Frame(7, 1, b"\x01\x02")))
