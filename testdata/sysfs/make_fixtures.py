#!/usr/bin/env python3
"""Regenerates the sysfs fixture trees in this folder (run it from here).

Formats follow the kernel's drivers/infiniband/core/sysfs.c and the examples
in the fabric-probe reference; values are illustrative. Conventions:
  <name>.errno   the read of <name> fails with that errno (sysfs does that:
                 a port's `rate` with no active width is EINVAL)
  host.json      facts that are not in sysfs (memlock, CAP_IPC_LOCK, host)
  verbs.json     libibverbs' answers on that node (`probe --capture` with
                 verbs); a tree without it has its verbs "not captured"
  config         PCI config space; 4096 bytes as root sees it, 64 bytes as an
                 unprivileged capture sees it
"""
import json, os, shutil, struct

def w(root, rel, text):
    p = os.path.join(root, rel)
    os.makedirs(os.path.dirname(p), exist_ok=True)
    mode = 'wb' if isinstance(text, bytes) else 'w'
    with open(p, mode) as f:
        f.write(text if isinstance(text, bytes) or text.endswith('\n') or text == '' else text + '\n')

def link(root, rel, target):
    p = os.path.join(root, rel)
    os.makedirs(os.path.dirname(p), exist_ok=True)
    if not os.path.lexists(p):
        os.symlink(target, p)

def config(acs_control=None, full=True):
    """Config space with AER at 0x100 and, when acs_control is set, ACS at 0x148."""
    if not full:
        return bytes(64)
    b = bytearray(4096)
    if acs_control is None:
        struct.pack_into('<I', b, 0x100, 0x0001 | (1 << 16))  # AER, end of list
    else:
        struct.pack_into('<I', b, 0x100, 0x0001 | (1 << 16) | (0x148 << 20))
        struct.pack_into('<I', b, 0x148, 0x000d | (1 << 16))
        struct.pack_into('<HH', b, 0x14c, 0x007f, acs_control)
    return bytes(b)

class Node:
    def __init__(self, root, host, memlock='unlimited', cap_ipc_lock=True):
        self.root = root
        shutil.rmtree(root, ignore_errors=True)
        os.makedirs(root)
        self.uverbs = 0
        w(root, 'host.json', json.dumps({'host': host, 'memlock_soft': memlock, 'cap_ipc_lock': cap_ipc_lock,
                                         'kernel': '6.1.0-18-amd64', 'nvidia_driver': '', 'nccl_version': '',
                                         'peer_memory_api': True}, indent=2))

    def verbs(self, devices):
        """verbs.json of a capture where libibverbs listed and opened every
        device: one ACTIVE 4X NDR InfiniBand port each, MTU 4096."""
        port = {'port': 1, 'state': 4, 'phys_state': 5, 'max_mtu': 5, 'active_mtu': 5, 'active_width': 2,
                'active_speed': 128, 'link_layer': 1, 'sm_lid': 1, 'gid_tbl_len': 255, 'cap_flags': 0}
        devs = [{'name': name, 'fw_ver': '28.39.1002', 'node_guid': int(g.replace(':', ''), 16), 'vendor_id': 0x02c9,
                 'vendor_part_id': 4129, 'phys_port_cnt': 1, 'dmabuf': 1, 'ports': [dict(port, lid=lid)]}
                for name, g, lid in devices]
        w(self.root, 'verbs.json', json.dumps({
            'schema': 'nccl-doctor.verbs-capture/1', 'status': 'loaded',
            'message': 'libibverbs.so.1 via /usr/lib/x86_64-linux-gnu/nccl-doctor/nd-verbs-ibverbs.so',
            'list_error': 0, 'listed': [d['name'] for d in devs], 'devices': devs, 'open_errors': {}}, indent=2))

    def pci(self, chain, vendor, device, cls, numa=0, acs=None, full_config=True, speed='32.0 GT/s PCIe', width=16,
            max_width=16):
        """chain = ['pci0000:15', '0000:15:01.0', ..., bdf]; makes every level."""
        path = 'devices'
        for i, comp in enumerate(chain):
            path += '/' + comp
            if i == 0:
                continue
            link(self.root, 'bus/pci/devices/' + comp, '../../../' + path)
            if i < len(chain) - 1 and not os.path.exists(os.path.join(self.root, path, 'class')):
                self.attrs(path, '0x10b5', '0xc010', '0x060400', numa, acs, full_config, speed, 16, 16)
        self.attrs(path, vendor, device, cls, numa, None, full_config, speed, width, max_width)
        return path

    def attrs(self, path, vendor, device, cls, numa, acs, full_config, speed, width, max_width):
        for k, v in (('vendor', vendor), ('device', device), ('class', cls), ('numa_node', str(numa)),
                     ('local_cpulist', '0-55,112-167' if numa == 0 else '56-111,168-223'),
                     ('current_link_speed', speed), ('max_link_speed', '32.0 GT/s PCIe'),
                     ('current_link_width', str(width)), ('max_link_width', str(max_width))):
            w(self.root, path + '/' + k, v)
        w(self.root, path + '/config', config(acs, full_config))

    def hca(self, name, chain, numa, netdev, fw, hca_type='MT4129', device='0x1021', cls='0x020700',
            guid='a088:c203:00b2:8f4c', ports=None, acs=None, full_config=True, pcie_width=16):
        path = self.pci(chain, '0x15b3', device, cls, numa, acs, full_config, width=pcie_width)
        ib = path + '/infiniband/' + name
        link(self.root, 'class/infiniband/' + name, '../../' + ib)
        link(self.root, ib + '/device', '../../../' + chain[-1])
        for k, v in (('node_type', '1: CA'), ('node_guid', guid), ('sys_image_guid', guid), ('fw_ver', fw),
                     ('hca_type', hca_type), ('hw_rev', '0'), ('board_id', 'MT_0000000838'),
                     ('node_desc', 'node ' + name)):
            w(self.root, ib + '/' + k, v)
        for n, port in (ports or {1: {}}).items():
            self.port(ib + '/ports/%d' % n, port)
        if netdev:
            net = path + '/net/' + netdev
            link(self.root, 'class/net/' + netdev, '../../' + net)
            w(self.root, net + '/type', '32' if (ports or {1: {}})[1].get('ll', 'InfiniBand') == 'InfiniBand' else '1')
            w(self.root, net + '/operstate', 'up')
            link(self.root, net + '/device', '../../../' + chain[-1])
        u = 'class/infiniband_verbs/uverbs%d' % self.uverbs
        self.uverbs += 1
        w(self.root, u + '/ibdev', name)
        w(self.root, u + '/abi_version', '1')
        w(self.root, u + '/dev', '231:%d' % (192 + self.uverbs))
        w(self.root, 'class/infiniband_verbs/abi_version', '6')
        w(self.root, 'class/infiniband_mad/abi_version', '5')

    def port(self, p, o):
        ll = o.get('ll', 'InfiniBand')
        w(self.root, p + '/state', o.get('state', '4: ACTIVE'))
        w(self.root, p + '/phys_state', o.get('phys', '5: LinkUp'))
        if o.get('rate') == 'EINVAL':
            w(self.root, p + '/rate.errno', 'EINVAL')
        else:
            w(self.root, p + '/rate', o.get('rate', '400 Gb/sec (4X NDR)'))
        w(self.root, p + '/link_layer', ll)
        w(self.root, p + '/lid', o.get('lid', '0x1b' if ll == 'InfiniBand' else '0x0'))
        w(self.root, p + '/sm_lid', o.get('sm_lid', '0x1' if ll == 'InfiniBand' else '0x0'))
        w(self.root, p + '/lid_mask_count', '0')
        w(self.root, p + '/sm_sl', '0')
        w(self.root, p + '/cap_mask', '0xa751e848' if ll == 'InfiniBand' else '0x00010000')
        gids = o.get('gids', [('fe80:0000:0000:0000:a088:c203:00b2:8f4c', 'IB/RoCE v1', None)])
        for i in range(max(len(gids), 4)):
            if i < len(gids):
                gid, typ, ndev = gids[i]
            else:
                gid, typ, ndev = '0000:0000:0000:0000:0000:0000:0000:0000', None, None
            w(self.root, p + '/gids/%d' % i, gid)
            # Empty slots and IB ports refuse these reads.
            if typ:
                w(self.root, p + '/gid_attrs/types/%d' % i, typ)
            else:
                w(self.root, p + '/gid_attrs/types/%d.errno' % i, 'EINVAL')
            if ndev:
                w(self.root, p + '/gid_attrs/ndevs/%d' % i, ndev)
            else:
                w(self.root, p + '/gid_attrs/ndevs/%d.errno' % i, 'EINVAL')
        w(self.root, p + '/pkeys/0', o.get('pkey', '0xffff'))
        w(self.root, p + '/pkeys/1', '0x0000')
        counters = {'symbol_error': 0, 'link_downed': 0, 'link_error_recovery': 0, 'port_rcv_errors': 0,
                    'port_rcv_remote_physical_errors': 0, 'port_xmit_discards': 0,
                    'local_link_integrity_errors': 0, 'excessive_buffer_overrun_errors': 0,
                    'port_xmit_data': 123456789, 'port_rcv_data': 987654321, 'port_xmit_wait': 0}
        counters.update(o.get('counters', {}))
        for k, v in counters.items():
            if v == 'EACCES':
                w(self.root, p + '/counters/%s.errno' % k, 'EACCES')
            else:
                w(self.root, p + '/counters/' + k, str(v))
        if ll == 'Ethernet':
            for k in ('out_of_buffer', 'out_of_sequence', 'local_ack_timeout_err', 'np_cnp_sent'):
                w(self.root, p + '/hw_counters/' + k, '0')

    def gpu(self, chain, numa, device='0x2330', width=16, acs=None):
        path = self.pci(chain, '0x10de', device, '0x030200', numa, acs=acs, width=width)
        return path

    def peermem(self, which='nvidia_peermem'):
        if which == 'nvidia_peermem':
            w(self.root, 'module/nvidia_peermem/version', '535.129.03')
        else:
            w(self.root, 'kernel/mm/memory_peers/nv_mem/version', '1.3-0')
        w(self.root, 'module/nvidia/version', '535.129.03')


def pair_chains(nic_bus, gpu_offset=3):
    hb = nic_bus - 3
    rp = '0000:%02x:01.0' % hb
    usp = '0000:%02x:00.0' % (hb + 1)
    nic = ['pci0000:%02x' % hb, rp, usp, '0000:%02x:00.0' % (hb + 2), '0000:%02x:00.0' % nic_bus]
    gpu = ['pci0000:%02x' % hb, rp, usp, '0000:%02x:01.0' % (hb + 2), '0000:%02x:00.0' % (nic_bus + gpu_offset)]
    return nic, gpu

DGX = [('mlx5_0', 0x18, 'ibp24s0'), ('mlx5_3', 0x40, 'ibp64s0'), ('mlx5_4', 0x4f, 'ibp79s0'),
       ('mlx5_5', 0x5e, 'ibp94s0'), ('mlx5_6', 0x9a, 'ibp154s0'), ('mlx5_9', 0xc0, 'ibp192s0'),
       ('mlx5_10', 0xce, 'ibp206s0'), ('mlx5_11', 0xdc, 'ibp220s0')]

def guid(i):
    return 'a088:c203:00b2:%04x' % (0x8f4c + i)

def ib_gid(i):
    return 'fe80:0000:0000:0000:' + guid(i)


def dgx():
    n = Node('dgx-h100-ib', 'dgx-01')
    for i, (name, bus, netdev) in enumerate(DGX):
        numa = 0 if i < 4 else 1
        nic, gpu = pair_chains(bus)
        n.hca(name, nic, numa, netdev, '28.39.1002', guid=guid(i),
              ports={1: {'lid': '0x%x' % (0x1b + i), 'gids': [(ib_gid(i), 'IB/RoCE v1', None)]}}, acs=0x0000)
        n.gpu(gpu, numa, acs=0x0000)
    n.peermem('nvidia_peermem')
    n.verbs([(name, guid(i), 0x1b + i) for i, (name, _, _) in enumerate(DGX)])


def roce():
    n = Node('roce-cx6dx', 'roce-01')
    # One dual-port ConnectX-6 Dx: two PCI functions, one RDMA device each.
    # Captured without root: config space is 64 bytes, so ACS is unknown.
    for f, ndev in ((0, 'enp65s0f0np0'), (1, 'enp65s0f1np1')):
        chain = ['pci0000:3f', '0000:3f:01.0', '0000:40:00.0', '0000:41:00.%d' % f]
        mac = 'ba3f:d2ff:fe2d:650%d' % (2 + f)
        gids = [('fe80:0000:0000:0000:' + mac, 'IB/RoCE v1', ndev), ('fe80:0000:0000:0000:' + mac, 'RoCE v2', ndev),
                ('0000:0000:0000:0000:0000:ffff:0a00:000%d' % (1 + f), 'IB/RoCE v1', ndev),
                ('0000:0000:0000:0000:0000:ffff:0a00:000%d' % (1 + f), 'RoCE v2', ndev)]
        n.hca('mlx5_%d' % f, chain, 0, ndev, '22.31.1014', hca_type='MT4125', device='0x101d', cls='0x020000',
              guid='b83f:d203:002d:650%d' % (2 + f), full_config=False,
              ports={1: {'ll': 'Ethernet', 'rate': '100 Gb/sec (4X EDR)', 'gids': gids}})
    n.pci(['pci0000:3f', '0000:3f:01.0', '0000:40:00.0', '0000:42:00.0'], '0x10de', '0x20b5', '0x030200', 0,
          full_config=False)
    n.peermem('nv_peer_mem')
    w(n.root, 'class/iommu/dmar0/uevent', '')


def roce_no_v2():
    n = Node('roce-no-v2', 'roce-02')
    ndev = 'enp65s0f0np0'
    gids = [('fe80:0000:0000:0000:ba3f:d2ff:fe2d:6502', 'IB/RoCE v1', ndev)]
    n.hca('mlx5_0', ['pci0000:3f', '0000:3f:01.0', '0000:41:00.0'], 0, ndev, '22.31.1014', hca_type='MT4125',
          device='0x101d', cls='0x020000', ports={1: {'ll': 'Ethernet', 'rate': '100 Gb/sec (4X EDR)', 'gids': gids}})
    n.peermem('nvidia_peermem')


def broken():
    n = Node('broken', 'gpu-17', memlock=65536, cap_ipc_lock=False)
    ports = [
        {'lid': '0x1b'},                                                    # healthy
        {'state': '1: DOWN', 'phys': '2: Polling', 'rate': 'EINVAL', 'lid': '0xffff', 'sm_lid': '0x0'},
        {'state': '2: INIT', 'lid': '0x0', 'sm_lid': '0x0'},               # no subnet manager
        {'rate': '200 Gb/sec (2X NDR)', 'lid': '0x1e',                       # down-trained, erroring
         'counters': {'symbol_error': 12, 'link_downed': 255, 'port_rcv_errors': 'EACCES'}},
    ]
    for i, (name, bus, netdev) in enumerate(DGX[:4]):
        nic, gpu = pair_chains(bus)
        # ACS redirect on the switch that joins GPU 0 and mlx5_0.
        n.hca(name, nic, 0, netdev, '28.39.1002' if i != 3 else '28.37.1014', guid=guid(i),
              ports={1: dict(ports[i], gids=[(ib_gid(i), 'IB/RoCE v1', None)])},
              acs=0x001d if i == 0 else 0x0000, pcie_width=16 if i != 3 else 8)
        # GPU 3 sits on the other socket from every NIC.
        if i < 3:
            n.gpu(gpu, 0, acs=0x001d if i == 0 else 0x0000)
    n.gpu(['pci0000:97', '0000:97:01.0', '0000:98:00.0', '0000:99:01.0', '0000:9d:00.0'], 1)
    w(n.root, 'module/nvidia/version', '535.129.03')  # driver, but no peermem


def no_rdma():
    n = Node('no-rdma', 'cpu-gpu-03')
    n.gpu(['pci0000:15', '0000:15:01.0', '0000:1b:00.0'], 0)
    n.gpu(['pci0000:97', '0000:97:01.0', '0000:9d:00.0'], 1)
    w(n.root, 'module/nvidia/version', '535.129.03')


def garbage():
    n = Node('garbage', 'odd-01')
    name, bus, netdev = DGX[0]
    nic, gpu = pair_chains(bus)
    n.hca(name, nic, 0, netdev, '28.39.1002', ports={1: {'state': 'banana', 'phys': '', 'rate': 'fast',
                                                           'lid': 'zz', 'counters': {'symbol_error': 'lots'}}})
    n.gpu(gpu, 0)
    w(n.root, devices_of(n, nic) + '/numa_node', 'x')
    w(n.root, 'class/infiniband/%s/fw_ver.errno' % name, 'EACCES')
    os.remove(os.path.join(n.root, 'class/infiniband/%s/fw_ver' % name))
    w(n.root, 'host.json', '{"host": "odd-01", "memlock_soft": "lots"')
    n.peermem()


def devices_of(n, chain):
    return 'devices/' + '/'.join(chain)


if __name__ == '__main__':
    for f in (dgx, roce, roce_no_v2, broken, no_rdma, garbage):
        f()
