"""``models.UUIDField(default=uuidx.uuid7)`` in a real Django project: ``makemigrations`` writes
``default=uuidx.uuid7`` (the public name, never the private ``uuidx._core``) into a migration
that imports only ``uuidx`` besides Django, and ``migrate`` then a row on SQLite work."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from optional import need

need("django")

SETTINGS = """
SECRET_KEY = "not secret: a test project"
INSTALLED_APPS = ["shop"]
DATABASES = {{"default": {{"ENGINE": "django.db.backends.sqlite3", "NAME": {db!r}}}}}
USE_TZ = True
DEFAULT_AUTO_FIELD = "django.db.models.AutoField"
"""

MODELS = """
import uuidx
from django.db import models


class Order(models.Model):
    id = models.UUIDField(primary_key=True, default=uuidx.uuid7, editable=False)
    token = models.UUIDField(default=uuidx.uuid4, unique=True)
    title = models.CharField(max_length=50)
"""

CREATE = """
import django
django.setup()
import uuid
from shop.models import Order
made = [Order.objects.create(title=f"t{i}") for i in range(3)]
assert all(type(o.id) is uuid.UUID and o.id.version == 7 for o in made)
assert all(o.token.version == 4 for o in made)
assert [o.title for o in Order.objects.order_by("id")] == ["t0", "t1", "t2"]
assert Order.objects.get(pk=made[1].id).token == made[1].token
print("ok", Order.objects.count())
"""


def django_admin(project: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(project), DJANGO_SETTINGS_MODULE="proj.settings")
    return subprocess.run(
        [sys.executable, *args], cwd=project, env=env, capture_output=True, text=True,
        timeout=120, check=False,
    )  # fmt: skip


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "proj").mkdir()
    (tmp_path / "proj" / "__init__.py").write_text("")
    settings = SETTINGS.format(db=str(tmp_path / "db.sqlite3"))
    (tmp_path / "proj" / "settings.py").write_text(textwrap.dedent(settings))
    (tmp_path / "shop" / "migrations").mkdir(parents=True)
    (tmp_path / "shop" / "__init__.py").write_text("")
    (tmp_path / "shop" / "migrations" / "__init__.py").write_text("")
    (tmp_path / "shop" / "models.py").write_text(MODELS)
    return tmp_path


def test_makemigrations_writes_the_public_names(project: Path) -> None:
    made = django_admin(project, "-m", "django", "makemigrations", "shop")
    assert made.returncode == 0, made.stderr
    (migration,) = (project / "shop" / "migrations").glob("0001_*.py")
    text = migration.read_text()
    assert "default=uuidx.uuid7" in text and "default=uuidx.uuid4" in text
    assert "_core" not in text
    imports = {line for line in text.splitlines() if line.startswith(("import ", "from "))}
    assert imports == {"import uuidx", "from django.db import migrations, models"}

    # The migration states the model exactly: nothing left to migrate.
    check = django_admin(project, "-m", "django", "makemigrations", "--check", "--dry-run")
    assert check.returncode == 0, check.stdout + check.stderr

    migrated = django_admin(project, "-m", "django", "migrate")
    assert migrated.returncode == 0, migrated.stderr
    created = django_admin(project, "-c", CREATE)
    assert created.returncode == 0, created.stderr
    assert created.stdout.split() == ["ok", "3"]
