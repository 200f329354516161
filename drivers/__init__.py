"""Hardware behind small interfaces, each with a real and a fake implementation."""

from drivers.events import ButtonEvent, CameraBack, CameraLost, DriverEvent, PodConnected, PodLost

__all__ = ["ButtonEvent", "CameraBack", "CameraLost", "DriverEvent", "PodConnected", "PodLost"]
