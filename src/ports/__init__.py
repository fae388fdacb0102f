"""Abstract repository ports: what the application needs from wherever data lives."""

from openproject_mcp.ports.repositories import (
    ApiSpecRepository,
    AttachmentRepository,
    CapabilityRepository,
    MeetingRepository,
    MetadataRepository,
    ProjectRepository,
    QueryRepository,
    WikiPageLinkRepository,
    WikiPageRepository,
    WorkPackageRepository,
)

__all__ = [
    "ApiSpecRepository",
    "AttachmentRepository",
    "CapabilityRepository",
    "MeetingRepository",
    "MetadataRepository",
    "ProjectRepository",
    "QueryRepository",
    "WikiPageLinkRepository",
    "WikiPageRepository",
    "WorkPackageRepository",
]
